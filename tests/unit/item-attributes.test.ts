/**
 * The one table of enumerated item attributes (core/nft.ts) and what is derived from it: the market view's
 * filters, the listing query's filters, the grade of each NFT type and the backend's columns.
 */
import { describe, expect, it } from "vitest";
import { LIST_FILTERS as VIEW_FILTERS, LIST_KEYS } from "~/features/market/filters/market-options";
import { GRADE_ATTRIBUTES, ITEM_ATTRIBUTE_KEYS, ITEM_ATTRIBUTES, NFT_TYPES, attributeName, gradeAttribute } from "~core/nft";
import { GRADE_COLUMNS } from "../../backend/market/shared/catalog";
import { LIST_FILTERS as QUERY_FILTERS, filterOf } from "../../backend/market/shared/listing-schemas";
import { ATTRIBUTE_COLUMNS } from "../../backend/market/shared/tables";
import { NO_CODES } from "./listing-fixture";

const NFT_TYPE_CODES = Object.keys(NFT_TYPES).map(Number);
const codesOf = (names: Readonly<Record<number, string>>) => Object.keys(names).map(Number);

describe("ITEM_ATTRIBUTES", () => {
  it("has one row per attribute code of ItemCodes (all but nftType, tokenURI and level)", () => {
    const codeFields = Object.keys(NO_CODES).filter((field) => !["nftType", "tokenURI", "level"].includes(field));
    expect([...ITEM_ATTRIBUTE_KEYS].sort()).toEqual(codeFields.sort());
  });

  it("each row names its codes and is carried by known NFT types; labels and trait names are unique", () => {
    for (const key of ITEM_ATTRIBUTE_KEYS) {
      const { label, trait, names, types } = ITEM_ATTRIBUTES[key];
      expect(codesOf(names).length, key).toBeGreaterThan(0);
      expect(types.length, key).toBeGreaterThan(0);
      for (const type of types) expect(NFT_TYPE_CODES, key).toContain(type);
      expect(label, key).not.toBe("");
      expect(trait, key).not.toBe("");
    }
    const rows = Object.values(ITEM_ATTRIBUTES);
    expect(new Set(rows.map((row) => row.label)).size).toBe(rows.length);
    expect(new Set(rows.map((row) => row.trait)).size).toBe(rows.length);
  });

  it("attributeName names known codes only", () => {
    expect(attributeName("pseType", 8)).toBe("Trabilizer");
    expect([attributeName("camp", 9), attributeName("camp", null), attributeName("camp", undefined)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("the grade of each NFT type", () => {
  it("is an attribute that the type carries", () => {
    for (const type of NFT_TYPE_CODES) {
      const key = gradeAttribute(type);
      expect(key).toBe(GRADE_ATTRIBUTES[type as keyof typeof GRADE_ATTRIBUTES]);
      expect(ITEM_ATTRIBUTES[key].types, `type ${type}`).toContain(type);
    }
    expect(gradeAttribute(42)).toBe("rarity");
  });

  it("is the backend's grade column, filter and codes (plus -1, unset)", () => {
    for (const type of NFT_TYPE_CODES) {
      const key = gradeAttribute(type);
      const grade = GRADE_COLUMNS[type as keyof typeof GRADE_COLUMNS];
      expect(grade).toEqual({ column: ATTRIBUTE_COLUMNS[key], filter: filterOf(key), codes: [-1, ...codesOf(ITEM_ATTRIBUTES[key].names)] });
    }
  });
});

describe("filters derived from the table", () => {
  it("every market view filter is one attribute's row, in the table's order", () => {
    expect(LIST_KEYS).toHaveLength(ITEM_ATTRIBUTE_KEYS.length);
    ITEM_ATTRIBUTE_KEYS.forEach((key, index) => {
      const { label, names, types } = ITEM_ATTRIBUTES[key];
      expect(VIEW_FILTERS[LIST_KEYS[index]]).toEqual({ label, options: names, types });
    });
    expect(LIST_KEYS).toEqual([
      "camp",
      "rarity",
      "identity",
      "profession",
      "material",
      "rank",
      "pse",
      "egse",
      "eggType",
      "equipmentType",
      "equipment",
      "boxType",
    ]);
  });

  it("every listing query filter takes one attribute's codes; PSE and EGSE types share `type`", () => {
    for (const key of ITEM_ATTRIBUTE_KEYS) {
      const codes = QUERY_FILTERS[filterOf(key)];
      for (const code of codesOf(ITEM_ATTRIBUTES[key].names)) expect(codes, key).toContain(code);
    }
    expect(Object.keys(QUERY_FILTERS)).toHaveLength(ITEM_ATTRIBUTE_KEYS.length - 1);
    expect([filterOf("pseType"), filterOf("egseType"), filterOf("rank")]).toEqual(["type", "type", "rank"]);
  });

  it("every attribute has its own column", () => {
    expect(Object.keys(ATTRIBUTE_COLUMNS).sort()).toEqual([...ITEM_ATTRIBUTE_KEYS].sort());
    expect(new Set(Object.values(ATTRIBUTE_COLUMNS)).size).toBe(ITEM_ATTRIBUTE_KEYS.length);
  });
});
