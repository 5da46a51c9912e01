/**
 * The NFT metadata documents our site serves for chain tokens (product §7 "NFT metadata"; docs/api/metadata.md):
 * `/nft/card/{id}.json` for a SparkCard token, from its attribute word, `/nft/items/{id}.json` for a SparkItems
 * (ERC-1155) id, from the id itself, and `/nft/box/{boxId}/{boxType}` for a BlindBox (loot box) token. Names, images and traits come from the one catalogue (core/item-catalog.ts), so a
 * token reads as the market shows the same item. Pure: the app's route reads the chain and hands the word over.
 */
import type { Trait } from "./api/market";
import { columnsOfItemData, imageFor, itemName, traitsOf } from "./item-catalog";
import { decodeItemData } from "./item-data";
import { stackOfTokenId } from "./item-tokens";
import { MATERIALS, NFT_TYPE, NFT_TYPES, enumName, type NftTypeCode } from "./nft";

/** The collections whose metadata our site serves by one `{id}.json` file name, as their path segment. */
export type MetadataCollection = "card" | "items";

/** ERC-721 / ERC-1155 metadata JSON (EIP-721, EIP-1155 "Metadata JSON Schema", plus the common `attributes`). */
export interface MetadataDocument {
  name: string;
  description: string;
  /** Absolute URL of the item's picture on our site. */
  image: string;
  /** The item's page on our site. */
  external_url: string;
  attributes: Trait[];
  /** ERC-1155 only: stacks count in whole units. */
  decimals?: 0;
}

const UINT256_MAX = (1n << 256n) - 1n;

/**
 * The token id a metadata path segment names, or null. Both collections take `<decimal>.json`; SparkItems also takes
 * the ERC-1155 `{id}` form, 64 hex digits (what clients substitute into `uri(id)`). A segment of exactly 64 characters
 * is read as hex: no decimal id of 64 digits names a stack, so the two forms never collide.
 */
export function parseMetadataId(collection: MetadataCollection, segment: string): bigint | null {
  const match = /^([0-9A-Fa-f]{1,78})\.json$/.exec(segment);
  if (!match) return null;
  const digits = match[1];
  let id: bigint;
  if (collection === "items" && digits.length === 64) id = BigInt(`0x${digits}`);
  else if (/^\d+$/.test(digits)) id = BigInt(digits);
  else return null;
  return id <= UINT256_MAX ? id : null;
}

/** The ERC-1155 `{id}` substitution: the id as 64 lowercase hex digits. */
export function hexTokenId(id: bigint): string {
  return id.toString(16).padStart(64, "0");
}

/** Replaces `{id}` in an ERC-1155 `uri(id)` answer. */
export function substituteTokenId(template: string, id: bigint): string {
  return template.replaceAll("{id}", hexTokenId(id));
}

/** Where a chain token's market item page is. */
export function itemPagePath(nftType: number, tokenId: bigint): string {
  return `/marketplace/detail?tokenId=${tokenId}&nftType=${nftType}`;
}

const DESCRIPTIONS: Partial<Record<number, string>> = {
  [NFT_TYPE.card]: "A Spark Era hero card. Its rarity, camp, identity, profession and level are kept on chain.",
  [NFT_TYPE.spaceship]: "A Spark Era spaceship. Its level and stats are kept on chain and rise when it is upgraded.",
  [NFT_TYPE.equipment]: "Spark Era equipment for a spaceship. Its grade and level are kept on chain.",
  [NFT_TYPE.egg]: "A Spark Era pet egg, held on chain.",
  [NFT_TYPE.material]: "A Spark Era material, used to upgrade spaceships.",
};

/** The document of a SparkCard token whose attribute word is `word`; null for a word of a kind SparkCard cannot hold. */
export function cardMetadata(tokenId: bigint, word: bigint, site: string): MetadataDocument | null {
  const attributes = decodeItemData(word);
  const columns = columnsOfItemData(attributes);
  if (!columns) return null;
  const { nftType } = attributes;
  const id = tokenId.toString();
  return {
    name: itemName(nftType, id, columns),
    description: DESCRIPTIONS[nftType] ?? "A Spark Era item.",
    image: site + imageFor(nftType, columns),
    external_url: site + itemPagePath(nftType, tokenId),
    attributes: traitsOf(nftType, columns),
  };
}

/**
 * The box id and type a BlindBox tokenURI's path ends with (`{boxId}/{boxType}`: BlindBox.tokenURI, whose last
 * segment clients read the box type from), or null.
 */
export function parseBoxPath(boxId: string, boxType: string): { boxId: bigint; boxType: number } | null {
  // Box types are small codes (product §3); six digits, as app/features/market/listing.ts reads them off a tokenURI.
  if (!/^\d{1,78}$/.test(boxId) || !/^\d{1,6}$/.test(boxType)) return null;
  const id = BigInt(boxId);
  return id <= UINT256_MAX ? { boxId: id, boxType: Number(boxType) } : null;
}

/** The document of a loot box token of `boxType` (what it is, by the catalogue's box names and ranks). */
export function boxMetadata(boxId: bigint, boxType: number, site: string): MetadataDocument {
  const columns = { box_type: boxType };
  return {
    name: itemName(NFT_TYPE.lootbox, boxId.toString(), columns),
    description: "A Spark Era loot box, held on chain. Opening it burns the box and mints what it holds.",
    image: site + imageFor(NFT_TYPE.lootbox, columns),
    external_url: site + itemPagePath(NFT_TYPE.lootbox, boxId),
    attributes: traitsOf(NFT_TYPE.lootbox, columns),
  };
}

/** The document of a SparkItems id: the stack kind it stands for (no amount: that is each holder's); null for none. */
export function stackMetadata(id: bigint, site: string): MetadataDocument | null {
  const stack = stackOfTokenId(id);
  if (!stack || stack.nftType !== NFT_TYPE.material) return null;
  const columns = { material: stack.code };
  const name = enumName(MATERIALS, stack.code) ?? NFT_TYPES[stack.nftType as NftTypeCode];
  return {
    name,
    description: `${DESCRIPTIONS[NFT_TYPE.material]} A stack of them counts in whole units.`,
    image: site + imageFor(stack.nftType, columns),
    // A stack is one item per holder in the market: the kind's page is the market filtered to it.
    external_url: `${site}/marketplace/market?nftType=${stack.nftType}&material=${stack.code}`,
    attributes: traitsOf(stack.nftType, columns, null),
    decimals: 0,
  };
}

/** The document's bytes as served: one fixed key order, so the same token data always gives the same ETag. */
export function metadataBody(document: MetadataDocument): string {
  const { name, description, image, external_url, attributes, decimals } = document;
  return JSON.stringify({ name, description, image, external_url, attributes, ...(decimals === undefined ? {} : { decimals }) });
}
