/**
 * product §3 derivations on listing items (isSale, isOwner, box type from the token URI) and the names the
 * marketplace shows for an item's codes. Pure: enumerations are rendered by name, never by number.
 */
import { getAddress, isAddress } from "viem";
import type { ItemCodes } from "~core/nft";
import { STAT_LABELS } from "~/features/spaceship/spaceship-labels";
import { rankLabel } from "~core/boxes";
import {
  ITEM_ATTRIBUTE_KEYS,
  ITEM_ATTRIBUTES,
  NFT_TYPE,
  SPACESHIP_STATS,
  attributeName,
  gradeAttribute,
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
  if (item.nftType === NFT_TYPE.lootbox) {
    const boxType = boxTypeFromTokenUri(item.tokenURI) ?? item.boxType;
    return boxType === undefined || boxType === null ? undefined : rankLabel(boxType);
  }
  const key = gradeAttribute(item.nftType);
  return attributeName(key, item[key]);
}

/** What the grade of a type is called, as in namedAttributes ("Rank" for loot boxes, product §3). */
export function gradeName(nftType: number): string {
  return nftType === NFT_TYPE.lootbox ? "Rank" : ITEM_ATTRIBUTES[gradeAttribute(nftType)].label;
}

export interface Attribute {
  label: string;
  value: string;
}

/** The item's codes by name, in a fixed order; absent attributes are left out. */
export function namedAttributes(item: ItemCodes): Attribute[] {
  const boxType = item.nftType === NFT_TYPE.lootbox ? (boxTypeFromTokenUri(item.tokenURI) ?? item.boxType) : item.boxType;
  // A loot box's type is read from its token URI first, and an unknown type is named too.
  const boxName = boxType === null || boxType === undefined ? undefined : (attributeName("boxType", boxType) ?? `Type ${boxType}`);
  const rows = ITEM_ATTRIBUTE_KEYS.map((key): [string, string | undefined] =>
    key === "boxType" ? ["Loot box", boxName] : [ITEM_ATTRIBUTES[key].label, attributeName(key, item[key])],
  );
  rows.push(["Level", item.level === null ? undefined : String(item.level)]);
  return rows.filter((row): row is [string, string] => row[1] !== undefined).map(([label, value]) => ({ label, value }));
}

/** product §3: NFT metadata attributes, a trait_type/value list, flattened into a name → value map. */
export function flattenAttributes(traits: readonly { trait_type: string; value: string | number }[]): Record<string, string | number> {
  const map: Record<string, string | number> = {};
  for (const trait of traits) map[trait.trait_type] = trait.value;
  return map;
}

/** A spaceship's seven stats and their Total, which product §3 defines as the sum (never trusted from elsewhere). */
export function spaceshipStats(item: Partial<Record<(typeof SPACESHIP_STATS)[number], number | null>>) {
  if (SPACESHIP_STATS.some((stat) => typeof item[stat] !== "number")) return undefined;
  const stats = Object.fromEntries(SPACESHIP_STATS.map((stat) => [stat, item[stat] as number])) as SpaceshipStats;
  return { rows: SPACESHIP_STATS.map((stat, index) => ({ label: STAT_LABELS[index]!, value: stats[stat] })), total: spaceshipTotal(stats) };
}
