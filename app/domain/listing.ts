/**
 * product §3 derivations on listing items (isSale, isOwner, box type from the token URI) and the names the
 * marketplace shows for an item's codes. Pure: enumerations are rendered by name, never by number.
 */
import { getAddress, isAddress } from "viem";
import type { ItemCodes } from "~core/api/market";
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
  PROFESSIONS,
  PSE_TYPES,
  RARITIES,
  SPACESHIP_STATS,
  SPACESHIP_TYPES,
  enumName,
  rankLabel,
  spaceshipTotal,
  type SpaceshipStats,
} from "~core/nft";

/** product §3: an item is on sale when it has a price. */
export function isSale(item: { price?: string | null }): boolean {
  return item.price !== null && item.price !== undefined && item.price !== "";
}

/**
 * product §3: the visitor owns the item when the owner address equals their wallet. Compared in checksummed
 * form; an address whose mixed-case checksum is wrong matches nothing.
 */
export function isOwner(owner: string | null | undefined, wallet: string | null | undefined): boolean {
  if (!owner || !wallet || !isAddress(owner) || !isAddress(wallet)) return false;
  return getAddress(owner) === getAddress(wallet);
}

/** The EIP-55 form of an address for display; other text is returned as it is. */
export function checksummed(address: string): string {
  return isAddress(address) ? getAddress(address) : address;
}

/** product §3: a loot box's token URI ends with its box type ("…/metadata/6/42/18" → 18). */
export function boxTypeFromTokenUri(tokenURI: string | null | undefined): number | undefined {
  if (!tokenURI) return undefined;
  const path = tokenURI.split(/[?#]/)[0].replace(/\/+$/, "");
  const last = path.slice(path.lastIndexOf("/") + 1);
  return /^\d{1,6}$/.test(last) ? Number(last) : undefined;
}

/**
 * The grade people read on a card: the product §3 rank label for loot boxes (from the token URI), otherwise the
 * name of the attribute that ranks the type.
 */
export function gradeLabel(item: ItemCodes): string | undefined {
  switch (item.nftType) {
    case NFT_TYPE.lootbox: {
      const boxType = boxTypeFromTokenUri(item.tokenURI) ?? item.boxType;
      return boxType === undefined || boxType === null ? undefined : rankLabel(boxType);
    }
    case NFT_TYPE.spaceship:
      return enumName(SPACESHIP_TYPES, item.rank);
    case NFT_TYPE.pse:
      return enumName(PSE_TYPES, item.pseType);
    case NFT_TYPE.egse:
      return enumName(EGSE_TYPES, item.egseType);
    case NFT_TYPE.equipment:
      return enumName(EQUIPMENT_TYPES, item.equipmentType);
    case NFT_TYPE.material:
      return enumName(MATERIALS, item.material);
    case NFT_TYPE.egg:
      return enumName(EGG_TYPES, item.eggType);
    default:
      return enumName(RARITIES, item.rarity);
  }
}

/** What the grade of a type is called, as in namedAttributes ("Rank" for loot boxes, product §3). */
export function gradeName(nftType: number): string {
  const names: Record<number, string> = {
    [NFT_TYPE.lootbox]: "Rank",
    [NFT_TYPE.spaceship]: "Spaceship type",
    [NFT_TYPE.pse]: "PSE type",
    [NFT_TYPE.egse]: "EGSE type",
    [NFT_TYPE.equipment]: "Equipment grade",
    [NFT_TYPE.material]: "Material",
    [NFT_TYPE.egg]: "Egg type",
  };
  return names[nftType] ?? "Rarity";
}

export interface Attribute {
  label: string;
  value: string;
}

/** The item's codes by name, in a fixed order; absent attributes are left out. */
export function namedAttributes(item: ItemCodes): Attribute[] {
  const boxType = item.nftType === NFT_TYPE.lootbox ? (boxTypeFromTokenUri(item.tokenURI) ?? item.boxType) : item.boxType;
  const rows: [string, string | undefined][] = [
    ["Camp", enumName(CAMPS, item.camp)],
    ["Rarity", enumName(RARITIES, item.rarity)],
    ["Identity", enumName(IDENTITIES, item.identity)],
    ["Profession", enumName(PROFESSIONS, item.profession)],
    ["Material", enumName(MATERIALS, item.material)],
    ["Spaceship type", enumName(SPACESHIP_TYPES, item.rank)],
    ["PSE type", enumName(PSE_TYPES, item.pseType)],
    ["EGSE type", enumName(EGSE_TYPES, item.egseType)],
    ["Egg type", enumName(EGG_TYPES, item.eggType)],
    ["Equipment grade", enumName(EQUIPMENT_TYPES, item.equipmentType)],
    ["Equipment", enumName(EQUIPMENT_CODES, item.equipmentCode)],
    ["Loot box", boxType === null || boxType === undefined ? undefined : (enumName(BOX_TYPES, boxType) ?? `Type ${boxType}`)],
    ["Level", item.level === null ? undefined : String(item.level)],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined).map(([label, value]) => ({ label, value }));
}

/** product §3: NFT metadata attributes, a trait_type/value list, flattened into a name → value map. */
export function flattenAttributes(traits: readonly { trait_type: string; value: string | number }[]): Record<string, string | number> {
  const map: Record<string, string | number> = {};
  for (const trait of traits) map[trait.trait_type] = trait.value;
  return map;
}

const STAT_LABELS: Record<(typeof SPACESHIP_STATS)[number], string> = {
  endurance: "Endurance",
  agility: "Agility",
  pisonic: "Pisonic",
  strength: "Strength",
  crit: "Crit",
  spirit: "Spirit",
  armor: "Armor",
};

/** A spaceship's seven stats and their Total, which product §3 defines as the sum (never trusted from elsewhere). */
export function spaceshipStats(item: Partial<Record<(typeof SPACESHIP_STATS)[number], number | null>>) {
  if (SPACESHIP_STATS.some((stat) => typeof item[stat] !== "number")) return undefined;
  const stats = Object.fromEntries(SPACESHIP_STATS.map((stat) => [stat, item[stat] as number])) as SpaceshipStats;
  return { rows: SPACESHIP_STATS.map((stat) => ({ label: STAT_LABELS[stat], value: stats[stat] })), total: spaceshipTotal(stats) };
}
