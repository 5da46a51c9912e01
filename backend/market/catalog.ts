/**
 * What an item looks like from its attribute columns: display name, image, NFT metadata traits and token URI.
 * The columns are the source of truth; the metadata JSON is derived from them, so the two never disagree.
 */
import {
  BOX_TYPES,
  CAMPS,
  EGG_TYPES,
  EGSE_TYPES,
  EQUIPMENT_CODES,
  EQUIPMENT_TYPES,
  IDENTITIES,
  MATERIALS,
  NFT_TYPE,
  NFT_TYPES,
  PROFESSIONS,
  PSE_TYPES,
  RARITIES,
  SPACESHIP_TYPES,
  enumName,
  equipmentSlot,
  rankLabel,
  type NftTypeCode,
} from "~core/nft";
import type { Trait } from "~core/api/market";
import type { ItemAttributeColumns } from "./tables";

export const API_PREFIX = "/api/v1";

/**
 * Per NFT type, the attribute that ranks its items and that listings copy into `grade`, with the listing
 * filter that addresses it. Prices follow it closely, so the market indexes lead with it.
 */
export const GRADE_COLUMNS = {
  0: { column: "rarity", filter: "rarity", codes: codes(RARITIES) },
  1: { column: "rarity", filter: "rarity", codes: codes(RARITIES) },
  2: { column: "pse_type", filter: "type", codes: codes(PSE_TYPES) },
  3: { column: "egse_type", filter: "type", codes: codes(EGSE_TYPES) },
  4: { column: "spaceship_type", filter: "rank", codes: codes(SPACESHIP_TYPES) },
  5: { column: "egg_type", filter: "eggType", codes: codes(EGG_TYPES) },
  6: { column: "box_type", filter: "boxType", codes: codes(BOX_TYPES) },
  7: { column: "equipment_type", filter: "equipmentType", codes: codes(EQUIPMENT_TYPES) },
  8: { column: "material", filter: "material", codes: codes(MATERIALS) },
} as const satisfies Record<NftTypeCode, { column: keyof ItemAttributeColumns; filter: string; codes: number[] }>;

/** The codes of an enumeration, plus -1: the grade of an item whose ranking attribute is unset. */
function codes(map: Record<number, string>): number[] {
  return [-1, ...Object.keys(map).map(Number)];
}
export const RARITY_SLUGS = ["common", "rare", "epic", "legend"] as const;

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
      return `${enumName(IDENTITIES, c.identity) ?? "Hero"} · ${enumName(PROFESSIONS, c.profession) ?? "Card"} ${n}`;
    case NFT_TYPE.halloween:
      return `${HALLOWEEN_NAMES[c.rarity ?? 0]} ${n}`;
    case NFT_TYPE.pse:
      return `PSE ${enumName(PSE_TYPES, c.pse_type) ?? ""} ${n}`;
    case NFT_TYPE.egse:
      return `EGSE ${enumName(EGSE_TYPES, c.egse_type) ?? ""} ${n}`;
    case NFT_TYPE.spaceship:
      return `${enumName(SPACESHIP_TYPES, c.spaceship_type) ?? ""} ${SHIP_CLASSES[(c.spaceship_type ?? 1) - 1]} ${n}`;
    case NFT_TYPE.egg:
      return `Pet Egg · ${enumName(EGG_TYPES, c.egg_type) ?? ""} ${n}`;
    case NFT_TYPE.lootbox:
      return `${enumName(BOX_TYPES, c.box_type) ?? "Loot"} Box ${n}`;
    case NFT_TYPE.equipment:
      return `${enumName(EQUIPMENT_CODES, c.equipment_code) ?? "Equipment"} ${n}`;
    case NFT_TYPE.material:
      return `${enumName(MATERIALS, c.material) ?? "Material"} ×${amount} ${n}`;
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
  add("Camp", enumName(CAMPS, c.camp));
  add("Rarity", enumName(RARITIES, c.rarity));
  add("Identity", enumName(IDENTITIES, c.identity));
  add("Profession", enumName(PROFESSIONS, c.profession));
  add("Material", enumName(MATERIALS, c.material));
  add("PSE Type", enumName(PSE_TYPES, c.pse_type));
  add("EGSE Type", enumName(EGSE_TYPES, c.egse_type));
  add("Egg Type", enumName(EGG_TYPES, c.egg_type));
  add("Spaceship Type", enumName(SPACESHIP_TYPES, c.spaceship_type));
  add("Equipment Type", enumName(EQUIPMENT_TYPES, c.equipment_type));
  add("Equipment", enumName(EQUIPMENT_CODES, c.equipment_code));
  if (c.equipment_code) add("Slot", equipmentSlot(c.equipment_code as keyof typeof EQUIPMENT_CODES));
  add("Box Type", enumName(BOX_TYPES, c.box_type));
  if (c.box_type !== null && c.box_type !== undefined) add("Rank", rankLabel(c.box_type));
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
