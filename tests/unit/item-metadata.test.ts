import { describe, expect, it } from "vitest";
import { encodeItem } from "~core/item-data";
import {
  boxMetadata,
  cardMetadata,
  hexTokenId,
  metadataBody,
  parseBoxPath,
  parseMetadataId,
  stackMetadata,
  substituteTokenId,
} from "~core/item-metadata";

const SITE = "https://sparkera.example";

describe("cardMetadata: one document per SparkCard kind, traits named as product §3", () => {
  it("a hero card", () => {
    const doc = cardMetadata(12n, encodeItem.card({ rarity: 2, camp: 1, identity: 0, profession: 2, level: 3 }), SITE)!;
    expect(doc).toMatchObject({
      name: "Leader · Bounty Hunter #12",
      image: `${SITE}/images/nft/card-epic.svg`,
      external_url: `${SITE}/marketplace/detail?tokenId=12&nftType=0`,
    });
    expect(doc.attributes).toEqual([
      { trait_type: "Type", value: "card" },
      { trait_type: "Camp", value: "Empire of Amda" },
      { trait_type: "Rarity", value: "Epic" },
      { trait_type: "Identity", value: "Leader" },
      { trait_type: "Profession", value: "Bounty Hunter" },
      { trait_type: "Level", value: 3 },
    ]);
    expect(doc).not.toHaveProperty("decimals");
  });

  it("a spaceship: level, the seven stats and their total, as numbers", () => {
    const doc = cardMetadata(7n, encodeItem.spaceship({ shipType: 4, level: 5, stats: [1, 2, 3, 4, 5, 6, 7] }), SITE)!;
    expect(doc.name).toBe("Legend Dreadnought #7");
    expect(doc.image).toBe(`${SITE}/images/nft/spaceship-legend.svg`);
    expect(doc.attributes).toEqual([
      { trait_type: "Type", value: "spaceship" },
      { trait_type: "Spaceship Type", value: "Legend" },
      { trait_type: "Level", value: 5 },
      { trait_type: "Endurance", value: 1 },
      { trait_type: "Agility", value: 2 },
      { trait_type: "Pisonic", value: 3 },
      { trait_type: "Strength", value: 4 },
      { trait_type: "Crit", value: 5 },
      { trait_type: "Spirit", value: 6 },
      { trait_type: "Armor", value: 7 },
      { trait_type: "Total", value: 28 },
    ]);
  });

  it("equipment: grade, piece, slot and level", () => {
    const doc = cardMetadata(30n, encodeItem.equipment({ equipmentType: 2, equipmentCode: 16, level: 4 }), SITE)!;
    expect(doc.name).toBe("Plasma Sword #30");
    expect(doc.attributes).toEqual([
      { trait_type: "Type", value: "equipment" },
      { trait_type: "Equipment Type", value: "Rare" },
      { trait_type: "Equipment", value: "Plasma Sword" },
      { trait_type: "Slot", value: "weapon" },
      { trait_type: "Level", value: 4 },
    ]);
  });

  it("a SparkCard material: one piece", () => {
    const doc = cardMetadata(5n, encodeItem.material(2), SITE)!;
    expect(doc.name).toBe("Gold ×1 #5");
    expect(doc.image).toBe(`${SITE}/images/nft/material-epic.svg`);
    expect(doc.attributes).toEqual([
      { trait_type: "Type", value: "material" },
      { trait_type: "Material", value: "Gold" },
      { trait_type: "Amount", value: "1" },
    ]);
  });

  it("a pet egg, with the camp its type belongs to", () => {
    const doc = cardMetadata(9n, encodeItem.egg(3), SITE)!;
    expect(doc.name).toBe("Pet Egg · Eternal Protoss #9");
    expect(doc.attributes).toEqual([
      { trait_type: "Type", value: "egg" },
      { trait_type: "Camp", value: "Eternal Protoss" },
      { trait_type: "Egg Type", value: "Eternal Protoss" },
    ]);
  });

  it("no document for a word of a kind SparkCard does not hold", () => {
    expect(cardMetadata(1n, 6n, SITE)).toBeNull();
  });
});

describe("stackMetadata: the SparkItems (ERC-1155) material stacks", () => {
  it.each([
    [8000n, "DarkIron", "common", 0],
    [8001n, "Silver", "rare", 1],
    [8002n, "Gold", "epic", 2],
  ])("%s is %s, in whole units, without a holder's amount", (id, name, grade, code) => {
    const doc = stackMetadata(id, SITE)!;
    expect(doc).toEqual({
      name,
      description: expect.stringContaining("whole units"),
      image: `${SITE}/images/nft/material-${grade}.svg`,
      external_url: `${SITE}/marketplace/market?nftType=8&material=${code}`,
      attributes: [
        { trait_type: "Type", value: "material" },
        { trait_type: "Material", value: name },
      ],
      decimals: 0,
    });
    expect(JSON.parse(metadataBody(doc))).toEqual(doc);
  });

  it("no document for an id that names no stack", () => {
    for (const id of [0n, 7999n, 8003n, 7000n, 1n << 255n]) expect(stackMetadata(id, SITE)).toBeNull();
  });
});

describe("boxMetadata and parseBoxPath: the loot boxes (BlindBox)", () => {
  it("names the box by its type, ranks it (product §3) and links its item page", () => {
    expect(boxMetadata(42n, 18, SITE)).toEqual({
      name: "V3-Galaxy loot box #42",
      description: expect.stringContaining("loot box"),
      image: `${SITE}/images/nft/lootbox-rare.svg`,
      external_url: `${SITE}/marketplace/detail?tokenId=42&nftType=6`,
      attributes: [
        { trait_type: "Type", value: "lootbox" },
        { trait_type: "Box Type", value: "V3-Galaxy loot box" },
        { trait_type: "Rank", value: "Uncommon" },
      ],
    });
    expect(boxMetadata(1n, 7, SITE)).toMatchObject({ name: "Legendary Box #1", image: `${SITE}/images/nft/lootbox-legend.svg` });
  });

  it("reads the {boxId}/{boxType} tail of a box tokenURI, and nothing else", () => {
    expect(parseBoxPath("42", "18")).toEqual({ boxId: 42n, boxType: 18 });
    for (const [id, type] of [
      ["42", "18.json"],
      ["-1", "4"],
      ["0x2a", "4"],
      ["42", "1234567"],
      [(1n << 256n).toString(), "4"],
    ]) {
      expect(parseBoxPath(id, type)).toBeNull();
    }
  });
});

describe("parseMetadataId", () => {
  it("reads decimal ids in both collections", () => {
    expect(parseMetadataId("card", "12.json")).toBe(12n);
    expect(parseMetadataId("items", "8001.json")).toBe(8001n);
  });

  it("reads the ERC-1155 {id} form (64 hex digits, either case) for items only", () => {
    expect(parseMetadataId("items", `${hexTokenId(8002n)}.json`)).toBe(8002n);
    expect(parseMetadataId("items", `${"0".repeat(60)}1F40.json`)).toBe(8000n);
    // 64 decimal digits are hex in the {id} form: 0x8000, not 8000.
    expect(parseMetadataId("items", `${"0".repeat(60)}8000.json`)).toBe(0x8000n);
    expect(parseMetadataId("card", `${hexTokenId(8002n)}.json`)).toBeNull();
  });

  it("refuses anything else", () => {
    for (const segment of ["12", "12.JSON", "-1.json", "1e3.json", "ab.json", ".json", "12.json.json", `${"9".repeat(79)}.json`]) {
      expect(parseMetadataId("card", segment)).toBeNull();
      expect(parseMetadataId("items", segment)).toBeNull();
    }
    // Over uint256.
    expect(parseMetadataId("card", `${(1n << 256n).toString()}.json`)).toBeNull();
  });

  it("substituteTokenId fills the ERC-1155 template", () => {
    expect(substituteTokenId("https://x.test/nft/items/{id}.json", 8000n)).toBe(`https://x.test/nft/items/${"0".repeat(60)}1f40.json`);
  });
});
