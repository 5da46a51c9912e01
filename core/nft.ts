/**
 * product §3 NFT enumerations: code → display name, plus the few pure rules built on them.
 * Shared by the market backend (validation, seed, metadata) and the app (rendering). Keep it dependency-free.
 */
/** The attribute codes of an item (null where a type has no such attribute); this module names them. */
export interface ItemCodes {
  nftType: number;
  tokenURI: string;
  camp: number | null;
  rarity: number | null;
  identity: number | null;
  profession: number | null;
  material: number | null;
  level: number | null;
  pseType: number | null;
  egseType: number | null;
  eggType: number | null;
  /** Spaceship type, called "rank" in the listing filters. */
  rank: number | null;
  equipmentType: number | null;
  equipmentCode: number | null;
  boxType: number | null;
}

/** NFT type codes as the market API speaks them. */
export const NFT_TYPES = {
  0: "card",
  1: "halloween",
  2: "pse",
  3: "egse",
  4: "spaceship",
  5: "egg",
  6: "lootbox",
  7: "equipment",
  8: "material",
} as const;
export type NftTypeCode = keyof typeof NFT_TYPES;
export type NftTypeName = (typeof NFT_TYPES)[NftTypeCode];

/** The same codes by name, so callers write `NFT_TYPE.lootbox` rather than a bare 6. */
export const NFT_TYPE = {
  card: 0,
  halloween: 1,
  pse: 2,
  egse: 3,
  spaceship: 4,
  egg: 5,
  lootbox: 6,
  equipment: 7,
  material: 8,
} as const satisfies Record<NftTypeName, NftTypeCode>;

/**
 * The NFT types a SparkCard token can hold (its attribute word, contracts/src/ItemData.sol): the only collection the
 * asset manager takes back into the game. A loot box is a BlindBox token instead, opened on chain, never swapped.
 */
export const CARD_COLLECTION_TYPES: readonly number[] = [
  NFT_TYPE.card,
  NFT_TYPE.spaceship,
  NFT_TYPE.egg,
  NFT_TYPE.equipment,
  NFT_TYPE.material,
];

export const RARITIES = { 0: "Common", 1: "Rare", 2: "Epic", 3: "Legend" } as const;
export const MATERIALS = { 0: "DarkIron", 1: "Silver", 2: "Gold" } as const;
export const IDENTITIES = { 0: "Leader", 1: "Scientist", 2: "Commander", 3: "Star Soldier", 4: "Common Soldier" } as const;
export const CAMPS = { 0: "Asman Zerg", 1: "Empire of Amda", 2: "Confederation of Earth", 3: "Eternal Protoss" } as const;
export const PROFESSIONS = {
  0: "Omni Warrior",
  1: "Psionicist",
  2: "Bounty Hunter",
  3: "Wanderer",
  4: "Liquidator",
} as const;
export const EGSE_TYPES = { 1: "NORMAL", 2: "RARE", 3: "EPIC" } as const;
export const PSE_TYPES = {
  1: "TypeI",
  2: "TypeII",
  3: "Star",
  4: "Galaxy",
  5: "Eternal",
  6: "blackbox",
  7: "golddigger",
  8: "Trabilizer",
} as const;
export const EGG_TYPES = { 1: "Confederation Of Earth", 2: "Empire of Amda", 3: "Eternal Protoss" } as const;
/** Spaceship type, called "rank" in the listing filters. */
export const SPACESHIP_TYPES = { 1: "Common", 2: "Rare", 3: "Epic", 4: "Legend" } as const;
/** Equipment grade. */
export const EQUIPMENT_TYPES = { 1: "Common", 2: "Rare", 3: "Epic", 4: "Legendary" } as const;

/** The 17 equipment codes: four helmets, four cuirasses, four leggings and five weapons. */
export const EQUIPMENT_CODES = {
  1: "Scout Helmet",
  2: "Vanguard Helmet",
  3: "Warden Helm",
  4: "Nova Crown",
  5: "Scout Cuirass",
  6: "Vanguard Cuirass",
  7: "Warden Breastplate",
  8: "Nova Aegis",
  9: "Scout Leggings",
  10: "Vanguard Greaves",
  11: "Warden Legguards",
  12: "Nova Striders",
  13: "Pulse Rifle",
  14: "Gauss Rifle",
  15: "Ion Pistol",
  16: "Plasma Sword",
  17: "Void Claws",
} as const;
export type EquipmentSlot = "helmet" | "cuirass" | "leggings" | "weapon";
/** Which body slot an equipment code fits. */
export function equipmentSlot(code: keyof typeof EQUIPMENT_CODES): EquipmentSlot {
  if (code <= 4) return "helmet";
  if (code <= 8) return "cuirass";
  if (code <= 12) return "leggings";
  return "weapon";
}

/** Loot box types that exist as items, with the names of the box catalogue (product §3, first list). */
export const BOX_TYPES = {
  4: "Standard",
  5: "Premium",
  6: "Epic",
  7: "Legendary",
  17: "Spaceship loot box",
  18: "V3-Galaxy loot box",
} as const;

/** The enumerated attributes of an item, named as in ItemCodes (core/api/market.ts). */
export type ItemAttributeKey = Exclude<keyof ItemCodes, "nftType" | "tokenURI" | "level">;

export interface ItemAttribute {
  /** What the marketplace calls it (filters, attribute lists, grades). */
  label: string;
  /** Its trait_type in NFT metadata (product §3), cased as the metadata always has been. */
  trait: string;
  /** Code → display name. */
  names: Readonly<Record<number, string>>;
  /** The NFT types that carry it. */
  types: readonly NftTypeCode[];
}

/** Every enumerated attribute, in the order the market's filters and attribute lists show them. */
export const ITEM_ATTRIBUTES = {
  camp: { label: "Camp", trait: "Camp", names: CAMPS, types: [0, 4, 5] },
  rarity: { label: "Rarity", trait: "Rarity", names: RARITIES, types: [0, 1] },
  identity: { label: "Identity", trait: "Identity", names: IDENTITIES, types: [0] },
  profession: { label: "Profession", trait: "Profession", names: PROFESSIONS, types: [0] },
  material: { label: "Material", trait: "Material", names: MATERIALS, types: [8] },
  rank: { label: "Spaceship type", trait: "Spaceship Type", names: SPACESHIP_TYPES, types: [4] },
  pseType: { label: "PSE type", trait: "PSE Type", names: PSE_TYPES, types: [2] },
  egseType: { label: "EGSE type", trait: "EGSE Type", names: EGSE_TYPES, types: [3] },
  eggType: { label: "Egg type", trait: "Egg Type", names: EGG_TYPES, types: [5] },
  equipmentType: { label: "Equipment grade", trait: "Equipment Type", names: EQUIPMENT_TYPES, types: [7] },
  equipmentCode: { label: "Equipment", trait: "Equipment", names: EQUIPMENT_CODES, types: [7] },
  boxType: { label: "Loot box type", trait: "Box Type", names: BOX_TYPES, types: [6] },
} as const satisfies Record<ItemAttributeKey, ItemAttribute>;
export const ITEM_ATTRIBUTE_KEYS = Object.keys(ITEM_ATTRIBUTES) as ItemAttributeKey[];

/** The name of an attribute's code; undefined for an unset or unknown code. */
export function attributeName(key: ItemAttributeKey, code: number | null | undefined): string | undefined {
  return enumName(ITEM_ATTRIBUTES[key].names, code);
}

/** Per NFT type, the attribute that ranks its items: the grade a card shows, and what the market's indexes lead with. */
export const GRADE_ATTRIBUTES = {
  0: "rarity",
  1: "rarity",
  2: "pseType",
  3: "egseType",
  4: "rank",
  5: "eggType",
  6: "boxType",
  7: "equipmentType",
  8: "material",
} as const satisfies Record<NftTypeCode, ItemAttributeKey>;

/** The attribute that ranks items of `nftType`; rarity for a code that is no NFT type. */
export function gradeAttribute(nftType: number): ItemAttributeKey {
  return GRADE_ATTRIBUTES[nftType as NftTypeCode] ?? "rarity";
}

export const LEVEL_MIN = 1;
export const LEVEL_MAX = 10;

/** The seven spaceship stats; Total is their sum and is not stored on its own in metadata. */
export const SPACESHIP_STATS = ["endurance", "agility", "pisonic", "strength", "crit", "spirit", "armor"] as const;
export type SpaceshipStat = (typeof SPACESHIP_STATS)[number];
export type SpaceshipStats = Record<SpaceshipStat, number>;

export function spaceshipTotal(stats: SpaceshipStats): number {
  return SPACESHIP_STATS.reduce((sum, stat) => sum + stats[stat], 0);
}

/** Looks a code up in one of the maps above; undefined for unknown codes. */
export function enumName<M extends Record<number, string>>(map: M, code: number | null | undefined): M[keyof M] | undefined {
  return code === null || code === undefined ? undefined : (map as Record<number, M[keyof M]>)[code];
}
