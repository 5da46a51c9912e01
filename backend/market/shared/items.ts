/**
 * Items and their listing rows: lookups, the listing insert shared by live sells and the seed, and the counters
 * (favorites, views) that sort the market. Every function is synchronous and expects to run inside one
 * MarketDb transaction.
 */
import type { Kysely, Selectable } from "kysely";
import type { Engine } from "../../db/sql";
import { ApiError } from "../../http";
import type { Currency } from "~core/money";
import type { NftTypeCode } from "~core/nft";
import { LISTING_CHANGED_MESSAGE } from "~core/orders";
import { GRADE_COLUMNS } from "./catalog";
import type { Sql } from "./db";
import { padWei, readWei } from "./money";
import { DAY, migrationSql, rebuildSaleDays, utcDay } from "./sale-days";
import {
  ACTIVITY_KIND,
  type ItemAttributeColumns,
  type ItemsTable,
  LISTING_STATUS,
  LISTING_VENUE,
  type ListingVenue,
  type ListingsTable,
} from "./tables";

export type ItemRow = Selectable<ItemsTable>;
export type ListingRow = Selectable<ListingsTable>;

export const ATTRIBUTE_COLUMN_NAMES = [
  "camp",
  "rarity",
  "identity",
  "profession",
  "material",
  "level",
  "pse_type",
  "egse_type",
  "egg_type",
  "spaceship_type",
  "equipment_type",
  "equipment_code",
  "box_type",
  "endurance",
  "agility",
  "pisonic",
  "strength",
  "crit",
  "spirit",
  "armor",
  "total",
] as const satisfies readonly (keyof ItemAttributeColumns)[];

export const MSG = {
  notFound: "Item not found",
  notOwner: "You do not own this item",
  notYourWallet: "address is not the wallet bound to your account",
  notInGame: "The item is not in the game (it is on chain or on its way there)",
  alreadyOnSale: "The item is already on sale",
  notOnSale: "The item is not on sale",
  alreadySold: "Already sold",
  notSeller: "Only the seller can cancel this sale",
  ownItem: "You cannot buy your own item",
  expired: "The listing has expired",
  listingChanged: LISTING_CHANGED_MESSAGE,
  noBalance: "Transaction failed. You do not have enough balance.",
  itemMoved: "The item has changed hands since you looked. Please reload the page.",
} as const;

export async function findItem(db: Sql, nftType: number, tokenId: string): Promise<ItemRow | undefined> {
  return await db.get<ItemRow>("select * from market_items where nft_type = ? and token_id = ?", [nftType, tokenId]);
}

export async function requireItem(db: Sql, nftType: number, tokenId: string): Promise<ItemRow> {
  const item = await findItem(db, nftType, tokenId);
  if (!item) throw new ApiError(404, MSG.notFound);
  return item;
}

export async function activeListing(db: Sql, itemId: number): Promise<ListingRow | undefined> {
  return await db.get<ListingRow>("select * from market_listings where item_id = ? and status = 0", [itemId]);
}

export async function lastListing(db: Sql, itemId: number): Promise<ListingRow | undefined> {
  return await db.get<ListingRow>("select * from market_listings where item_id = ? order by id desc limit 1", [itemId]);
}

export interface NewListing {
  seller: string;
  price: bigint;
  currency: Currency;
  listedAt: number;
  status?: (typeof LISTING_STATUS)[keyof typeof LISTING_STATUS];
  buyer?: string | null;
  closedAt?: number | null;
  nonce?: string | null;
  expiry?: number | null;
  signature?: string | null;
  /** A chain listing's signed Trading fields (listings/chain-listings.ts); absent for a ledger listing. */
  chain?: { collection: string; standard: number; amount: string; salt: string; counter: string; orderHash: string };
  /** Where it was filled, for a row without `chain` (an accepted chain offer's sale, insertOfferSale). */
  venue?: ListingVenue;
}

const LISTING_COLUMNS = `item_id, nft_type, token_id, seller_address, buyer_address, price, currency, status, listed_at, closed_at,
  nonce, expiry, signature, views, favorites, grade, ${ATTRIBUTE_COLUMN_NAMES.join(", ")}`;
const LISTING_INSERT = `insert into market_listings (${LISTING_COLUMNS}) values (${Array(16 + ATTRIBUTE_COLUMN_NAMES.length)
  .fill("?")
  .join(", ")}) on conflict do nothing returning id`;
// A chain listing's extra columns (market_017) are named only for one, so the ledger's insert (and the generator)
// also runs on a database before that migration (tests/backend/market-indexer-rules.test.ts migrates one).
const VENUE_LISTING_INSERT = `insert into market_listings (${LISTING_COLUMNS}, venue) values (${Array(17 + ATTRIBUTE_COLUMN_NAMES.length)
  .fill("?")
  .join(", ")}) on conflict do nothing returning id`;
const CHAIN_LISTING_INSERT = `insert into market_listings (${LISTING_COLUMNS}, venue, collection, standard, amount, salt, counter, order_hash)
  values (${Array(23 + ATTRIBUTE_COLUMN_NAMES.length)
    .fill("?")
    .join(", ")}) on conflict do nothing returning id`;

/**
 * A listing row carrying copies of the item's filter columns, so one index answers a market page. Null when the
 * item already has an active listing (the key market_listings_one_active).
 */
export async function insertListing(db: Sql, item: ItemRow, listing: NewListing): Promise<number | null> {
  const chain = listing.chain;
  const venue = !chain && listing.venue !== undefined;
  const inserted = await db.get<{ id: number }>(chain ? CHAIN_LISTING_INSERT : venue ? VENUE_LISTING_INSERT : LISTING_INSERT, [
    item.id,
    item.nft_type,
    item.token_id,
    listing.seller,
    listing.buyer ?? null,
    padWei(listing.price),
    listing.currency,
    listing.status ?? LISTING_STATUS.active,
    listing.listedAt,
    listing.closedAt ?? null,
    listing.nonce ?? null,
    listing.expiry ?? null,
    listing.signature ?? null,
    item.views,
    item.favorites,
    item[GRADE_COLUMNS[item.nft_type as NftTypeCode].column] ?? -1,
    ...ATTRIBUTE_COLUMN_NAMES.map((name) => item[name]),
    ...(chain ? [LISTING_VENUE.chain, chain.collection, chain.standard, chain.amount, chain.salt, chain.counter, chain.orderHash] : []),
    ...(venue ? [listing.venue] : []),
  ]);
  return inserted?.id ?? null;
}

/**
 * An accepted offer's sale as a listing sold at the offer's price, opened and closed at the sale: a view's numbers,
 * history and sale rollups find a sale through its listing's copies of the filter columns (decision 0022), so a sale
 * without one would count in no view. Never active, so no other listing of the item conflicts with it.
 */
export async function insertOfferSale(
  db: Sql,
  item: ItemRow,
  sale: { seller: string; buyer: string; price: bigint; currency: Currency; at: number; venue: ListingVenue },
): Promise<number> {
  const { seller, buyer, price, currency, at, venue } = sale;
  const listing = { seller, buyer, price, currency, listedAt: at, closedAt: at, status: LISTING_STATUS.sold, venue };
  return (await insertListing(db, item, listing))!;
}

/**
 * Gives each offer sale logged without a listing (before market_024) its sold listing, from the item as it is now,
 * and rebuilds the rollups of their days. The offer it accepted (same item, closed at the sale) names its venue.
 */
export async function backfillOfferSales(kysely: Kysely<unknown>, engine: Engine, sharded = true): Promise<void> {
  const db = migrationSql(kysely, engine);
  const sales = await db.all<{
    id: number;
    item_id: number;
    from_address: string;
    to_address: string;
    price: string;
    currency: Currency;
    at: number;
    venue: number | null;
  }>(
    `select a.id, a.item_id, a.from_address, a.to_address, a.price, a.currency, a.at,
       (select o.venue from market_offers o where o.accepted_item_id = a.item_id and o.closed_at = a.at and o.status = 1 limit 1) as venue
     from market_activity a where a.kind = ? and a.listing_id is null`,
    [ACTIVITY_KIND.sale],
  );
  const days = new Set<number>();
  for (const sale of sales) {
    const item = (await db.get<ItemRow>("select * from market_items where id = ?", [sale.item_id]))!;
    const at = Number(sale.at);
    const venue = Number(sale.venue ?? LISTING_VENUE.game) as ListingVenue;
    const listingId = await insertOfferSale(db, item, {
      seller: sale.from_address,
      buyer: sale.to_address,
      price: readWei(sale.price),
      currency: sale.currency,
      at,
      venue,
    });
    await db.run("update market_activity set listing_id = ? where id = ?", [listingId, sale.id]);
    days.add(Math.floor(at / DAY));
  }
  // `sharded: false` in market_024 / pg_0012, before the rollups had shards (market_029 / pg_0019).
  for (const day of days) await rebuildSaleDays(db, day, day, undefined, sharded);
}

/** Bumps an item's counter and its active listing's copy, in SQL (never below 0), so concurrent bumps all count. */
async function bumpCounter(db: Sql, itemId: number, counter: "views" | "favorites", delta: number): Promise<void> {
  const floored = `case when ${counter} + ? < 0 then 0 else ${counter} + ? end`;
  await db.run(`update market_items set ${counter} = ${floored} where id = ?`, [delta, delta, itemId]);
  await db.run(`update market_listings set ${counter} = ${floored} where item_id = ? and status = 0`, [delta, delta, itemId]);
}

/** Idempotent: adding twice leaves one favorite; answers whether it is now a favorite and the count. */
export async function setFavorite(db: Sql, address: string, item: ItemRow, on: boolean, now: number) {
  const changed = on
    ? (
        await db.run("insert into market_favorites (address, item_id, created_at) values (?, ?, ?) on conflict do nothing", [
          address,
          item.id,
          now,
        ])
      ).changes
    : (await db.run("delete from market_favorites where address = ? and item_id = ?", [address, item.id])).changes;
  if (changed) await bumpCounter(db, item.id, "favorites", on ? 1 : -1);
  const favorites = (await db.get<{ favorites: number }>("select favorites from market_items where id = ?", [item.id]))!.favorites;
  return { isFavorite: on, favorites };
}

/** Counts a view once per visitor per UTC day. */
export async function addView(db: Sql, item: ItemRow, visitor: string, now: number) {
  const counted =
    (
      await db.run("insert into market_views (item_id, visitor, day) values (?, ?, ?) on conflict do nothing", [
        item.id,
        visitor,
        utcDay(now),
      ])
    ).changes > 0;
  if (counted) await bumpCounter(db, item.id, "views", 1);
  const views = (await db.get<{ views: number }>("select views from market_items where id = ?", [item.id]))!.views;
  return { counted, views };
}
