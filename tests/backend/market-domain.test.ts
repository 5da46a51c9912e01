/** Pure pieces under the market: product §3 rules, the sortable wei encoding, the generator's determinism. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BOX_TYPES, EQUIPMENT_CODES, NFT_TYPE, NFT_TYPES, SPACESHIP_STATS, equipmentSlot, spaceshipTotal } from "~core/nft";
import { rankLabel } from "~core/boxes";
import { gradeOf, imageFor, itemName, tokenUriFor, traitsOf } from "../../backend/market/shared/catalog";
import { drawAttributes, drawPrice, prng } from "../../backend/market/generate";
import type { ItemRow } from "../../backend/market/shared/items";
import { UINT256_MAX, parseUint256 } from "~core/money";
import { padWei, readWei } from "../../backend/market/shared/money";

describe("product §3 rules", () => {
  it("labels loot box ranks: Uncommon for 18; Legendary for 8, 19, 7, 17; Common otherwise", () => {
    expect(rankLabel(18)).toBe("Uncommon");
    for (const type of [8, 19, 7, 17]) expect(rankLabel(type)).toBe("Legendary");
    for (const type of [1, 2, 3, 4, 5, 6, 9, 20]) expect(rankLabel(type)).toBe("Common");
  });

  it("sums the seven spaceship stats into Total", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(10_000), { minLength: 7, maxLength: 7 }), (values) => {
        const stats = Object.fromEntries(SPACESHIP_STATS.map((stat, i) => [stat, values[i]])) as Record<
          (typeof SPACESHIP_STATS)[number],
          number
        >;
        expect(spaceshipTotal(stats)).toBe(values.reduce((a, b) => a + b, 0));
      }),
    );
  });

  it("has nine NFT types and 17 equipment codes over four slots", () => {
    expect(Object.keys(NFT_TYPES)).toHaveLength(9);
    const codes = Object.keys(EQUIPMENT_CODES).map(Number) as (keyof typeof EQUIPMENT_CODES)[];
    expect(codes).toEqual([...Array(17).keys()].map((i) => i + 1));
    expect(new Set(codes.map(equipmentSlot))).toEqual(new Set(["helmet", "cuirass", "leggings", "weapon"]));
  });
});

describe("wei stored as 78-digit text", () => {
  const wei = fc.bigInt({ min: 0n, max: UINT256_MAX });
  it("orders and compares as text exactly as the numbers do", () => {
    fc.assert(
      fc.property(wei, wei, (a, b) => {
        const [x, y] = [padWei(a), padWei(b)];
        expect(x.length).toBe(78);
        expect(Math.sign(x.localeCompare(y, "en", { numeric: false }))).toBe(a < b ? -1 : a > b ? 1 : 0);
        expect(x < y).toBe(a < b);
        expect(readWei(x)).toBe(a);
      }),
    );
  });

  it("parses only canonical uint256 decimals", () => {
    expect(parseUint256(UINT256_MAX.toString())).toBe(UINT256_MAX);
    for (const bad of ["", "-1", "1.0", "1e18", "0x10", " 1", (UINT256_MAX + 1n).toString()]) expect(parseUint256(bad)).toBeUndefined();
    expect(() => padWei(-1n)).toThrow();
  });
});

describe("catalog and generator", () => {
  it("draws the same items from the same seed, with attributes from the enumerations", () => {
    const draw = () => {
      const rng = prng(42);
      return Object.values(NFT_TYPE).map((type) => drawAttributes(type, rng));
    };
    expect(draw()).toEqual(draw());
    const ship = drawAttributes(NFT_TYPE.spaceship, prng(1));
    expect(ship.total).toBe(SPACESHIP_STATS.reduce((sum, stat) => sum + ship[stat]!, 0));
    const box = drawAttributes(NFT_TYPE.lootbox, prng(3));
    expect(Object.keys(BOX_TYPES).map(Number)).toContain(box.box_type);
  });

  it("prices are positive wei, higher grades dearer on average", () => {
    const rng = prng(7);
    const mean = (rarity: number) => {
      let sum = 0n;
      for (let i = 0; i < 200; i++) {
        const item = {
          nft_type: 0,
          rarity,
          level: 1,
          amount: "1",
          spaceship_type: null,
          equipment_type: null,
          material: null,
          box_type: null,
        } as unknown as ItemRow;
        const price = drawPrice(rng, item, "USDT");
        expect(price > 0n).toBe(true);
        sum += price;
      }
      return sum / 200n;
    };
    expect(mean(3) > mean(2) && mean(2) > mean(1) && mean(1) > mean(0)).toBe(true);
  });

  it("names a loot box with one 'Box' (issue 23)", () => {
    expect(itemName(NFT_TYPE.lootbox, "11", { box_type: 18 })).toBe("V3-Galaxy loot box #11");
    expect(itemName(NFT_TYPE.lootbox, "12", { box_type: 17 })).toBe("Spaceship loot box #12");
    expect(itemName(NFT_TYPE.lootbox, "13", { box_type: 4 })).toBe("Standard Box #13");
  });

  it("names images, token URIs and traits from the columns", () => {
    expect(imageFor(NFT_TYPE.lootbox, { box_type: 18 })).toBe("/images/nft/lootbox-rare.svg");
    expect(imageFor(NFT_TYPE.spaceship, { spaceship_type: 4 })).toBe("/images/nft/spaceship-legend.svg");
    expect(gradeOf(NFT_TYPE.pse, { pse_type: 5 })).toBe(3);
    expect(tokenUriFor(NFT_TYPE.lootbox, "12", 7)).toBe("/api/v1/metadata/6/12/7");
    expect(tokenUriFor(NFT_TYPE.card, "12", null)).toBe("/api/v1/metadata/0/12");
    expect(traitsOf(NFT_TYPE.lootbox, { box_type: 17 })).toContainEqual({ trait_type: "Rank", value: "Legendary" });
  });
});
