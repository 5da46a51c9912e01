/**
 * What an item looks like from its attribute columns: display name, image path and NFT metadata traits. One catalogue
 * for the market backend (its rows), the chain indexer (a SparkCard word becomes a row) and the metadata documents our
 * site serves for chain tokens (core/item-metadata.ts), so a game item and its token never describe it differently.
 */
import type { StatValues, Trait } from "./api/market";
import { rankLabel } from "./boxes";
import type { ItemAttributes } from "./item-data";
import {
  ITEM_ATTRIBUTES,
  ITEM_ATTRIBUTE_KEYS,
  NFT_TYPE,
  NFT_TYPES,
  attributeName,
  equipmentSlot,
  type EQUIPMENT_CODES,
  type ItemAttributeKey,
  type NftTypeCode,
} from "./nft";

/** The column of each enumerated attribute (ItemCodes in core/api/market.ts names them in camelCase). */
export const ATTRIBUTE_COLUMNS = {
  camp: "camp",
  rarity: "rarity",
  identity: "identity",
  profession: "profession",
  material: "material",
  rank: "spaceship_type",
  pseType: "pse_type",
  egseType: "egse_type",
  eggType: "egg_type",
  equipmentType: "equipment_type",
  equipmentCode: "equipment_code",
  boxType: "box_type",
} as const satisfies Record<ItemAttributeKey, string>;

/** An item's attributes as the market keeps them: a column per enumerated attribute, its level and ship stats. */
export type ItemAttributeColumns = Record<(typeof ATTRIBUTE_COLUMNS)[ItemAttributeKey] | "level", number | null> & StatValues;

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

/** Our own SVG per type and grade (public/images/nft, written by scripts/make-nft-images.ts): a path on our site. */
export function imageFor(nftType: number, columns: Partial<ItemAttributeColumns>): string {
  const type = NFT_TYPES[nftType as NftTypeCode] ?? "card";
  return `/images/nft/${type}-${RARITY_SLUGS[gradeOf(nftType, columns)] ?? "common"}.svg`;
}

const HALLOWEEN_NAMES = ["Pumpkin Lantern", "Specter Drone", "Grave Beacon", "Witch Core"] as const;
const SHIP_CLASSES = ["Corvette", "Frigate", "Cruiser", "Dreadnought"] as const;

export function itemName(nftType: number, tokenId: string, c: Partial<ItemAttributeColumns>, amount = 1n): string {
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

/**
 * NFT metadata traits (product §3: a trait_type/value list) for the item's columns; `amount` only for a stack, as
 * decimal text since a uint256 balance can pass 2^53.
 */
export function traitsOf(nftType: number, c: Partial<ItemAttributeColumns>, amount: bigint | null = 1n): Trait[] {
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
  if (nftType === NFT_TYPE.material) add("Amount", amount?.toString());
  return traits;
}

/** Every attribute column, unset. */
export function noAttributeColumns(): ItemAttributeColumns {
  return {
    camp: null,
    rarity: null,
    identity: null,
    profession: null,
    material: null,
    level: null,
    pse_type: null,
    egse_type: null,
    egg_type: null,
    spaceship_type: null,
    equipment_type: null,
    equipment_code: null,
    box_type: null,
    endurance: null,
    agility: null,
    pisonic: null,
    strength: null,
    crit: null,
    spirit: null,
    armor: null,
    total: null,
  };
}

/** The columns a decoded SparkCard word describes; null for a kind SparkCard does not hold. */
export function columnsOfItemData(a: ItemAttributes): ItemAttributeColumns | null {
  if ("raw" in a) return null;
  const c = noAttributeColumns();
  switch (a.nftType) {
    case NFT_TYPE.card:
      return { ...c, rarity: a.rarity, level: a.level, camp: a.camp, identity: a.identity, profession: a.profession };
    case NFT_TYPE.spaceship:
      // The word carries no camp for ships.
      return { ...c, spaceship_type: a.shipType, level: a.level, ...a.stats, total: a.total };
    case NFT_TYPE.egg:
      return { ...c, egg_type: a.eggType, camp: EGG_CAMPS[a.eggType] ?? null };
    case NFT_TYPE.equipment:
      return { ...c, equipment_type: a.equipmentType, equipment_code: a.equipmentCode, level: a.level };
    case NFT_TYPE.material:
      return { ...c, material: a.material };
  }
}
