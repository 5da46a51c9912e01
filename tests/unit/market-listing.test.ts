import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ItemCodes } from "~core/nft";
import {
  boxTypeFromTokenUri,
  flattenAttributes,
  gradeLabel,
  gradeName,
  isOwner,
  isSale,
  namedAttributes,
  spaceshipStats,
} from "~/features/market/listing";
import { formatPrice, formatWei, parseTokenAmount } from "~core/money";
import { CAMPS, EGSE_TYPES, IDENTITIES, MATERIALS, PROFESSIONS, PSE_TYPES, RARITIES } from "~core/nft";
import { rankLabel } from "~core/boxes";
import { NO_CODES } from "./listing-fixture";

describe("product §3 derivations", () => {
  it("isSale: a price means on sale", () => {
    expect(isSale({ price: "12500000000000000000" })).toBe(true);
    expect(isSale({ price: "0" })).toBe(true);
    expect(isSale({ price: null })).toBe(false);
    expect(isSale({})).toBe(false);
  });

  it("isOwner: compares checksummed addresses", () => {
    const wallet = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    expect(isOwner(wallet, wallet)).toBe(true);
    expect(isOwner(wallet.toLowerCase(), wallet)).toBe(true);
    expect(isOwner(wallet, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBe(false);
    // A mixed-case address with a broken checksum is not an address.
    expect(isOwner("0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266", wallet)).toBe(false);
    expect(isOwner(wallet, "")).toBe(false);
    expect(isOwner(null, wallet)).toBe(false);
  });

  it("box type comes from the token URI's last path segment", () => {
    expect(boxTypeFromTokenUri("/api/v1/metadata/6/42/18")).toBe(18);
    expect(boxTypeFromTokenUri("https://nft.example/box/7/")).toBe(7);
    expect(boxTypeFromTokenUri("https://nft.example/box/17?ts=123")).toBe(17);
    expect(boxTypeFromTokenUri("https://nft.example/box/abc")).toBeUndefined();
    expect(boxTypeFromTokenUri("")).toBeUndefined();
  });

  it("a loot box card shows the product spec's rank label, read from its token URI", () => {
    const box = (uri: string): ItemCodes => ({ ...NO_CODES, nftType: 6, tokenURI: uri, boxType: 4 });
    expect(gradeLabel(box("/api/v1/metadata/6/1/18"))).toBe("Uncommon");
    expect(gradeLabel(box("/api/v1/metadata/6/1/17"))).toBe("Legendary");
    expect(gradeLabel(box("/api/v1/metadata/6/1/7"))).toBe("Legendary");
    expect(gradeLabel(box("/api/v1/metadata/6/1/5"))).toBe("Common");
    // Without a box type in the URI, the record's own box type is used.
    expect(gradeLabel(box("/api/v1/metadata/6/1"))).toBe("Common");
  });

  it("other types show the name of their ranking attribute, never a number", () => {
    expect(gradeLabel({ ...NO_CODES, nftType: 4, rank: 4 })).toBe("Legend");
    expect(gradeLabel({ ...NO_CODES, nftType: 2, pseType: 8 })).toBe("Trabilizer");
    expect(gradeLabel({ ...NO_CODES, nftType: 3, egseType: 1 })).toBe("NORMAL");
    expect(gradeLabel({ ...NO_CODES, nftType: 7, equipmentType: 4 })).toBe("Legendary");
    expect(gradeLabel({ ...NO_CODES, nftType: 8, material: 2 })).toBe("Gold");
    expect(gradeLabel({ ...NO_CODES, nftType: 0, rarity: 3 })).toBe("Legend");
    expect([0, 4, 6, 8].map(gradeName)).toEqual(["Rarity", "Spaceship type", "Rank", "Material"]);
    const card = { ...NO_CODES, camp: 3, rarity: 1, identity: 3, profession: 2, level: 7 };
    expect(namedAttributes(card)).toEqual([
      { label: "Camp", value: "Eternal Protoss" },
      { label: "Rarity", value: "Rare" },
      { label: "Identity", value: "Star Soldier" },
      { label: "Profession", value: "Bounty Hunter" },
      { label: "Level", value: "7" },
    ]);
  });

  it("flattens metadata attributes into a name → value map", () => {
    expect(
      flattenAttributes([
        { trait_type: "Camp", value: "Asman Zerg" },
        { trait_type: "Level", value: 3 },
      ]),
    ).toEqual({ Camp: "Asman Zerg", Level: 3 });
  });

  it("spaceship Total is the sum of the seven stats", () => {
    const stats = spaceshipStats({ endurance: 10, agility: 20, pisonic: 30, strength: 40, crit: 5, spirit: 6, armor: 7 });
    expect(stats?.total).toBe(118);
    expect(stats?.rows.map((row) => row.label)).toEqual(["Endurance", "Agility", "Pisonic", "Strength", "Crit", "Spirit", "Armor"]);
    expect(spaceshipStats({ endurance: null })).toBeUndefined();
  });
});

describe("product §3 enumerations and rank labels", () => {
  it("names every code as the product spec lists it", () => {
    expect(RARITIES).toEqual({ 0: "Common", 1: "Rare", 2: "Epic", 3: "Legend" });
    expect(MATERIALS).toEqual({ 0: "DarkIron", 1: "Silver", 2: "Gold" });
    expect(IDENTITIES).toEqual({ 0: "Leader", 1: "Scientist", 2: "Commander", 3: "Star Soldier", 4: "Common Soldier" });
    expect(CAMPS).toEqual({ 0: "Asman Zerg", 1: "Empire of Amda", 2: "Confederation of Earth", 3: "Eternal Protoss" });
    expect(PROFESSIONS).toEqual({ 0: "Omni Warrior", 1: "Psionicist", 2: "Bounty Hunter", 3: "Wanderer", 4: "Liquidator" });
    expect(EGSE_TYPES).toEqual({ 1: "NORMAL", 2: "RARE", 3: "EPIC" });
    expect(Object.values(PSE_TYPES)).toEqual(["TypeI", "TypeII", "Star", "Galaxy", "Eternal", "blackbox", "golddigger", "Trabilizer"]);
  });

  it("rank label: Uncommon for 18; Legendary for 8, 19, 7 and 17; Common otherwise", () => {
    expect(rankLabel(18)).toBe("Uncommon");
    for (const type of [8, 19, 7, 17]) expect(rankLabel(type)).toBe("Legendary");
    for (const type of [1, 2, 3, 4, 5, 6, 9, 16, 20]) expect(rankLabel(type)).toBe("Common");
  });
});

describe("money: wei as bigint, decimal text at the edges", () => {
  it("formats wei without floats", () => {
    expect(formatWei(12_500_000_000_000_000_000n)).toBe("12.5");
    expect(formatWei("1")).toBe("0.000000000000000001");
    expect(formatWei(0n)).toBe("0");
    expect(formatWei(1_234_567n * 10n ** 18n, { group: true })).toBe("1,234,567");
    expect(formatPrice("12500000000000000000", "FIRE")).toBe("12.5 FIRE");
    expect(formatWei(1_239_990_000_000_000_000n, { maxFraction: 2 })).toBe("1.23");
    expect(formatWei(1_000_000_000_000_000n, { maxFraction: 2 })).toBe("0");
    // Beyond 2^53 a float would round; bigint keeps every digit.
    expect(formatWei(9_007_199_254_740_993n * 10n ** 18n + 1n)).toBe("9007199254740993.000000000000000001");
  });

  it("parses typed amounts and refuses anything else", () => {
    expect(parseTokenAmount("12.5")).toBe(12_500_000_000_000_000_000n);
    expect(parseTokenAmount(".5")).toBe(500_000_000_000_000_000n);
    expect(parseTokenAmount("0012")).toBe(12n * 10n ** 18n);
    for (const bad of ["", ".", "-1", "1e5", "1,5", "0.0000000000000000001", "abc", "1 000"]) expect(parseTokenAmount(bad)).toBeUndefined();
  });

  it("round trips every uint256 amount", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (wei) => {
        expect(parseTokenAmount(formatWei(wei))).toBe(wei);
      }),
    );
  });
});
