/**
 * What a chain token becomes in the market: an item row built from the SparkCard attribute word (or the loot box's
 * type) by the same catalogue as game items, so it renders like any other item in storage, detail and metadata; and
 * the stacks mined materials become in the game. Pure.
 */
import type { Insertable } from "kysely";
import { decodeItemData, encodeItem } from "~core/item-data";
import { NFT_TYPE, SPACESHIP_STATS } from "~core/nft";
import { EGG_CAMPS, imageFor, itemName, traitsOf } from "../catalog";
import { ATTRIBUTE_COLUMN_NAMES } from "../items";
import { type ItemAttributeColumns, type ItemsTable, LOCATION } from "../tables";

export interface ChainItem {
  nftType: number;
  columns: ItemAttributeColumns;
}

const noAttributes = () => Object.fromEntries(ATTRIBUTE_COLUMN_NAMES.map((name) => [name, null])) as unknown as ItemAttributeColumns;

/** The item a SparkCard word describes; null for a kind SparkCard does not hold, which the market cannot show. */
export function cardItem(word: bigint): ChainItem | null {
  const a = decodeItemData(word);
  if ("raw" in a) return null;
  const c = noAttributes();
  switch (a.nftType) {
    case NFT_TYPE.card:
      Object.assign(c, { rarity: a.rarity, level: a.level, camp: a.camp, identity: a.identity, profession: a.profession });
      break;
    case NFT_TYPE.spaceship:
      // The word carries no camp for ships.
      Object.assign(c, { spaceship_type: a.shipType, level: a.level, ...a.stats, total: a.total });
      break;
    case NFT_TYPE.egg:
      Object.assign(c, { egg_type: a.eggType, camp: EGG_CAMPS[a.eggType] ?? null });
      break;
    case NFT_TYPE.equipment:
      Object.assign(c, { equipment_type: a.equipmentType, equipment_code: a.equipmentCode, level: a.level });
      break;
    case NFT_TYPE.material:
      c.material = a.material;
      break;
  }
  return { nftType: a.nftType, columns: c };
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
    amount: 1,
    attributes: JSON.stringify(traitsOf(nftType, columns)),
    views: 0,
    favorites: 0,
    created_at: now,
    updated_at: now,
    ...columns,
  };
}

/** A stack of a mined material (0 DarkIron, 1 Silver, 2 Gold) brought into the game under a game-issued id. */
export function materialStackRow(material: number, amount: number, tokenId: string, owner: string, now: number): Insertable<ItemsTable> {
  const columns = { ...noAttributes(), material };
  return {
    nft_type: NFT_TYPE.material,
    token_id: tokenId,
    owner_address: owner,
    location: LOCATION.game,
    name: itemName(NFT_TYPE.material, tokenId, columns, amount),
    image: imageFor(NFT_TYPE.material, columns),
    amount,
    attributes: JSON.stringify(traitsOf(NFT_TYPE.material, columns, amount)),
    views: 0,
    favorites: 0,
    created_at: now,
    updated_at: now,
    ...columns,
  };
}
