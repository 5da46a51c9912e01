/**
 * What an item looks like from its attribute columns: display name, image, NFT metadata traits and token URI.
 * The columns are the source of truth; the metadata JSON is derived from them, so the two never disagree.
 */
import { rankLabel } from "~core/boxes";
import {
  GRADE_ATTRIBUTES,
  ITEM_ATTRIBUTES,
  ITEM_ATTRIBUTE_KEYS,
  NFT_TYPE,
  NFT_TYPES,
  attributeName,
  equipmentSlot,
  type EQUIPMENT_CODES,
  type NftTypeCode,
} from "~core/nft";
import type { Trait } from "~core/api/market";
import { filterOf, type ListFilter } from "./listing-schemas";
import { codesOf } from "./params";
import { ATTRIBUTE_COLUMNS, type ItemAttributeColumns } from "./tables";

export const API_PREFIX = "/api/v1";

/**
 * Per NFT type, the column of the attribute that ranks its items (GRADE_ATTRIBUTES), which listings copy into
 * `grade`, with the listing filter that addresses it and its codes plus -1 (unset). Prices follow it closely, so
 * the market indexes lead with it.
 */
export const GRADE_COLUMNS = Object.fromEntries(
  Object.entries(GRADE_ATTRIBUTES).map(([nftType, key]) => [
    nftType,
    { column: ATTRIBUTE_COLUMNS[key], filter: filterOf(key), codes: [-1, ...codesOf(ITEM_ATTRIBUTES[key].names)] },
  ]),
) as Record<NftTypeCode, { column: keyof ItemAttributeColumns; filter: ListFilter; codes: number[] }>;

export const RARITY_SLUGS = ["common", "rare", "epic", "legend"] as const;

/** The camp each pet egg type belongs to (product §3 EGG_TYPES name their camps). */
export const EGG_CAMPS: Readonly<Record<number, number>> = { 1: 2, 2: 1, 3: 3 };

/** PSE types grouped into the four visual grades. */
const PSE_GRADE: Record<number, number> = { 1: 0, 2: 0, 3: 1, 4: 1, 5: 3, 6: 2, 7: 2, 8: 3 };

/** The 0–3 visual grade of an item: its rarity, or the type-specific rank that plays that role. */
export function gradeOf(nftType: number, columns: Partial<ItemAttributeColumns>): number {
  switch (nftType) {
    case NFT_TYPE.spaceship:
      return (columns.spaceship_type ?? 1) - 1;
    case NFT_TYPE.equipment:
      return (columns.equipment_type ?? 1) - 1;
    case NFT_TYPE.egse:
      return (columns.egse_type ?? 1) - 1;
    case NFT_TYPE.pse:
      return PSE_GRADE[columns.pse_type ?? 1] ?? 0;
    case NFT_TYPE.egg:
      return (columns.egg_type ?? 1) - 1;
    case NFT_TYPE.material:
      return columns.material ?? 0;
    case NFT_TYPE.lootbox: {
      const label = rankLabel(columns.box_type ?? 0);
      return label === "Legendary" ? 3 : label === "Uncommon" ? 1 : 0;
    }
    default:
      return columns.rarity ?? 0;
  }
}

/** Our own SVG per type and grade, written by scripts/make-nft-images.ts. */
export function imageFor(nftType: number, columns: Partial<ItemAttributeColumns>): string {
  const type = NFT_TYPES[nftType as NftTypeCode] ?? "card";
  return `/images/nft/${type}-${RARITY_SLUGS[gradeOf(nftType, columns)] ?? "common"}.svg`;
}

/** product §3: a loot box's token URI ends with its box type. */
export function tokenUriFor(nftType: number, tokenId: string, boxType: number | null): string {
  const base = `${API_PREFIX}/metadata/${nftType}/${tokenId}`;
  return nftType === NFT_TYPE.lootbox && boxType !== null ? `${base}/${boxType}` : base;
}

const HALLOWEEN_NAMES = ["Pumpkin Lantern", "Specter Drone", "Grave Beacon", "Witch Core"] as const;
const SHIP_CLASSES = ["Corvette", "Frigate", "Cruiser", "Dreadnought"] as const;

export function itemName(nftType: number, tokenId: string, c: Partial<ItemAttributeColumns>, amount = 1): string {
  const n = `#${tokenId}`;
  switch (nftType) {
    case NFT_TYPE.card:
      return `${attributeName("identity", c.identity) ?? "Hero"} · ${attributeName("profession", c.profession) ?? "Card"} ${n}`;
    case NFT_TYPE.halloween:
      return `${HALLOWEEN_NAMES[c.rarity ?? 0]} ${n}`;
    case NFT_TYPE.pse:
      return `PSE ${attributeName("pseType", c.pse_type) ?? ""} ${n}`;
    case NFT_TYPE.egse:
      return `EGSE ${attributeName("egseType", c.egse_type) ?? ""} ${n}`;
    case NFT_TYPE.spaceship:
      return `${attributeName("rank", c.spaceship_type) ?? ""} ${SHIP_CLASSES[(c.spaceship_type ?? 1) - 1]} ${n}`;
    case NFT_TYPE.egg:
      return `Pet Egg · ${attributeName("eggType", c.egg_type) ?? ""} ${n}`;
    case NFT_TYPE.lootbox: {
      // Some box names end in "box" already ("V3-Galaxy loot box"): no second "Box".
      const box = attributeName("boxType", c.box_type) ?? "Loot";
      return /\bbox$/i.test(box) ? `${box} ${n}` : `${box} Box ${n}`;
    }
    case NFT_TYPE.equipment:
      return `${attributeName("equipmentCode", c.equipment_code) ?? "Equipment"} ${n}`;
    case NFT_TYPE.material:
      return `${attributeName("material", c.material) ?? "Material"} ×${amount} ${n}`;
    default:
      return `Item ${n}`;
  }
}

/** NFT metadata traits (product §3: a trait_type/value list) for the item's columns. */
export function traitsOf(nftType: number, c: Partial<ItemAttributeColumns>, amount = 1): Trait[] {
  const traits: Trait[] = [{ trait_type: "Type", value: NFT_TYPES[nftType as NftTypeCode] ?? "unknown" }];
  const add = (trait_type: string, value: string | number | null | undefined) => {
    if (value !== null && value !== undefined) traits.push({ trait_type, value });
  };
  for (const key of ITEM_ATTRIBUTE_KEYS) {
    const code = c[ATTRIBUTE_COLUMNS[key]];
    add(ITEM_ATTRIBUTES[key].trait, attributeName(key, code));
    // Derived traits follow the attribute they come from.
    if (key === "equipmentCode" && code) add("Slot", equipmentSlot(code as keyof typeof EQUIPMENT_CODES));
    if (key === "boxType" && code !== null && code !== undefined) add("Rank", rankLabel(code));
  }
  add("Level", c.level);
  add("Endurance", c.endurance);
  add("Agility", c.agility);
  add("Pisonic", c.pisonic);
  add("Strength", c.strength);
  add("Crit", c.crit);
  add("Spirit", c.spirit);
  add("Armor", c.armor);
  add("Total", c.total);
  if (nftType === NFT_TYPE.material) add("Amount", amount);
  return traits;
}
