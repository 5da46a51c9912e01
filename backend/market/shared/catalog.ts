/**
 * The market's side of the item catalogue: grade columns and token URIs. Names, images and traits come from
 * core/item-catalog.ts (re-exported here), shared with the metadata documents of chain tokens.
 */
import { GRADE_ATTRIBUTES, ITEM_ATTRIBUTES, NFT_TYPE, type NftTypeCode } from "~core/nft";
import { filterOf, type ListFilter } from "./listing-schemas";
import { codesOf } from "./params";
import { ATTRIBUTE_COLUMNS, type ItemAttributeColumns } from "./tables";

export { EGG_CAMPS, RARITY_SLUGS, gradeOf, imageFor, itemName, traitsOf } from "~core/item-catalog";

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

/** product §3: a loot box's token URI ends with its box type. */
export function tokenUriFor(nftType: number, tokenId: string, boxType: number | null): string {
  const base = `${API_PREFIX}/metadata/${nftType}/${tokenId}`;
  return nftType === NFT_TYPE.lootbox && boxType !== null ? `${base}/${boxType}` : base;
}
