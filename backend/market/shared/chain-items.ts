/**
 * What a chain token becomes in the market: an item row built from the SparkCard attribute word (or the loot box's
 * type) by the same catalogue as game items, so it renders like any other item in storage, detail and metadata; and
 * the stacks mined materials become in the game. Pure.
 */
import type { Insertable } from "kysely";
import { zeroAddress } from "viem";
import { decodeItemData, encodeItem } from "~core/item-data";
import { NFT_TYPE, SPACESHIP_STATS } from "~core/nft";
import { columnsOfItemData, noAttributeColumns as noAttributes } from "~core/item-catalog";
import { imageFor, itemName, traitsOf } from "./catalog";
import { type ItemAttributeColumns, type ItemsTable, LOCATION } from "./tables";

export interface ChainItem {
  nftType: number;
  columns: ItemAttributeColumns;
}

/** The item a SparkCard word describes; null for a kind SparkCard does not hold, which the market cannot show. */
export function cardItem(word: bigint): ChainItem | null {
  const a = decodeItemData(word);
  const columns = columnsOfItemData(a);
  return columns && { nftType: a.nftType, columns };
}

/**
 * The SparkCard attribute word of a game item, the inverse of cardItem: what the asset manager mints when the
 * item is first claimed to the chain. Null for what SparkCard cannot hold (a loot box) or a row missing an
 * attribute its kind needs.
 */
export function itemWord(nftType: number, c: ItemAttributeColumns): bigint | null {
  switch (nftType) {
    case NFT_TYPE.card: {
      const fields = [c.rarity, c.level, c.camp, c.identity, c.profession];
      if (fields.some((value) => value === null)) return null;
      const [rarity, level, camp, identity, profession] = fields as number[];
      return encodeItem.card({ rarity, level, camp, identity, profession });
    }
    case NFT_TYPE.spaceship: {
      const stats = SPACESHIP_STATS.map((name) => c[name]);
      if (c.spaceship_type === null || c.level === null || stats.some((value) => value === null)) return null;
      return encodeItem.spaceship({ shipType: c.spaceship_type, level: c.level, stats: stats as number[] });
    }
    case NFT_TYPE.egg:
      return c.egg_type === null ? null : encodeItem.egg(c.egg_type);
    case NFT_TYPE.equipment:
      if (c.equipment_type === null || c.equipment_code === null || c.level === null) return null;
      return encodeItem.equipment({ equipmentType: c.equipment_type, equipmentCode: c.equipment_code, level: c.level });
    case NFT_TYPE.material:
      return c.material === null ? null : encodeItem.material(c.material);
    default:
      return null;
  }
}

export function boxItem(boxType: number): ChainItem {
  return { nftType: NFT_TYPE.lootbox, columns: { ...noAttributes(), box_type: boxType } };
}

/** A new item row for a token held on chain by `owner`. A chain token is one piece: materials too. */
export function chainItemRow({ nftType, columns }: ChainItem, tokenId: string, owner: string, now: number): Insertable<ItemsTable> {
  return {
    nft_type: nftType,
    token_id: tokenId,
    owner_address: owner,
    location: LOCATION.chain,
    name: itemName(nftType, tokenId, columns),
    image: imageFor(nftType, columns),
    amount: "1",
    attributes: JSON.stringify(traitsOf(nftType, columns)),
    views: 0,
    favorites: 0,
    created_at: now,
    updated_at: now,
    ...columns,
  };
}

/** A stack of a mined material (0 DarkIron, 1 Silver, 2 Gold) brought into the game under a game-issued id. */
export function materialStackRow(material: number, amount: bigint, tokenId: string, owner: string, now: number): Insertable<ItemsTable> {
  const columns = { ...noAttributes(), material };
  return {
    nft_type: NFT_TYPE.material,
    token_id: tokenId,
    owner_address: owner,
    location: LOCATION.game,
    name: itemName(NFT_TYPE.material, tokenId, columns, amount),
    image: imageFor(NFT_TYPE.material, columns),
    amount: amount.toString(),
    attributes: JSON.stringify(traitsOf(NFT_TYPE.material, columns, amount)),
    views: 0,
    favorites: 0,
    created_at: now,
    updated_at: now,
    ...columns,
  };
}

/** The columns of a chain item's row (chainItemRow). */
export const ROW_COLUMNS = Object.keys(chainItemRow(boxItem(0), "0", zeroAddress, 0)) as (keyof Insertable<ItemsTable>)[];
/**
 * What a token is (its kind, name, image, traits, attributes), rewritten when a reorg gave its id to another token,
 * or when its word changed (indexer/mutations.ts).
 */
export const DESCRIPTION_COLUMNS = ROW_COLUMNS.filter(
  (name) => !["token_id", "owner_address", "location", "amount", "views", "favorites", "created_at", "updated_at"].includes(name),
);
