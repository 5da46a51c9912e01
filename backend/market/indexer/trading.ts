/**
 * The trading stream of the market indexer (issue 28): the Trading contract's Sale, ListingCancelled and
 * CounterIncremented events close the chain listings the market stores (listings/chain-listings.ts), and OfferAccepted,
 * OfferCancelled and CounterIncremented its chain offers (offers/chain-offers.ts, issue 30; an accepted offer is a sale), up to
 * the head (decision 0029). A Sale marks its listing sold (buyer, block time) and counts as a sale in the activity and
 * the day's volume; the ledger's balances are not touched, the money moved on chain. Like the bridge and materials
 * streams, every applied event is stored with its block hash and what it changed (unique by transaction and log
 * index, so none is applied twice), and after a reorg the changes of vanished events are taken back (stream.ts).
 * A listed item that changes holder otherwise (sold elsewhere, swapped into the game, transferred) is closed by the
 * transfers stream (apply.ts), which asks the chain whether its order was filled, so a sale is never logged as a cancel.
 */
import { type Address, type Hash, getAbiItem } from "viem";
import { tradingAbi } from "../../../contracts/generated/abi";
import type { ContractAddresses } from "~core/contracts";
import type { Currency } from "~core/money";
import { LISTING_STANDARD } from "~core/trading";
import { addDailyVolume, type NewActivity, recordActivity, removeDailyVolume } from "../shared/activity";
import { DAY, rebuildSaleDays } from "../shared/sale-days";
import { itemOfToken } from "../listings";
import { type OfferEffect, chainOfferByHash, chainOffersBelowCounter, closeChainOffers, undoOfferEffect, OFFER_STATUS } from "../offers";
import type { Sql } from "../shared/db";
import { type ItemRow, type ListingRow, insertOfferSale } from "../shared/items";
import { readWei } from "../shared/money";
import { ACTIVITY_KIND, LISTING_STATUS, LISTING_VENUE } from "../shared/tables";
import { applyStreamRange, type ChainEventPosition, type StoredStream, storedStream, type StreamRange } from "./stream";

export const TRADING_STREAM = "trading";

export const SALE_EVENT = getAbiItem({ abi: tradingAbi, name: "Sale" });
export const COUNTER_EVENT = getAbiItem({ abi: tradingAbi, name: "CounterIncremented" });
export const OFFER_ACCEPTED_EVENT = getAbiItem({ abi: tradingAbi, name: "OfferAccepted" });
export const OFFER_CANCELLED_EVENT = getAbiItem({ abi: tradingAbi, name: "OfferCancelled" });
// Trading's ABI has both an error and an event named ListingCancelled (contracts/src/Trading.sol): the event here.
export const CANCELLED_EVENT = tradingAbi.find(
  (item): item is Extract<(typeof tradingAbi)[number], { type: "event"; name: "ListingCancelled" }> =>
    item.type === "event" && item.name === "ListingCancelled",
)!;

interface EventPosition extends ChainEventPosition {
  /** The block's time, unix seconds. */
  time: bigint;
}

export type TradingEvent = EventPosition &
  (
    | { event: "sale"; orderHash: Hash; seller: Address; buyer: Address }
    | { event: "cancelled"; orderHash: Hash; seller: Address }
    | { event: "counter"; seller: Address; counter: bigint }
    | { event: "offerAccepted"; orderHash: Hash; buyer: Address; seller: Address; collection: Address; tokenId: bigint }
    | { event: "offerCancelled"; orderHash: Hash; buyer: Address }
  );

/** A listing an event cancelled and the cancel it logged. */
export interface ClosedListing {
  listingId: number;
  activityId: number;
}

/** What applying an event changed, stored with it so a reorg can take it back. */
type Effect =
  | { type: "sold"; listingId: number; previousStatus: number; previousClosedAt: number | null; activityId: number; at: number }
  | { type: "closed"; closed: ClosedListing[] }
  | { type: "none"; reason: string }
  | { type: "counter"; closed: ClosedListing[]; offers: OfferEffect }
  | OfferEffect;

const itemOf = async (db: Sql, listing: ListingRow) =>
  (await db.get<ItemRow>("select * from market_items where id = ?", [listing.item_id]))!;

/**
 * When a chain event closed a listing: its block's time, but never before the listing was stored (the chain's clock
 * and ours differ, and blocks count whole seconds), so an item's history stays in order.
 */
const closedAt = (listing: ListingRow, blockMs: number) => Math.max(blockMs, listing.listed_at + 1);

/** A chain sale (a listing's or an accepted offer's) in the item's activity and the day's volume: the activity's id. */
async function recordChainSale(db: Sql, item: ItemRow, sale: Omit<NewActivity, "kind" | "item">): Promise<number> {
  const activityId = await recordActivity(db, { kind: ACTIVITY_KIND.sale, item, ...sale });
  await addDailyVolume(db, sale.at, item.nft_type, sale.currency, sale.price, sale.listingId);
  return activityId;
}

/** Closes an active chain listing as cancelled at `blockMs` (see closedAt), logged; null when it was no longer active. */
export async function cancelListing(db: Sql, listing: ListingRow, blockMs: number): Promise<ClosedListing | null> {
  const at = closedAt(listing, blockMs);
  const { changes } = await db.run("update market_listings set status = ?, closed_at = ? where id = ? and status = ?", [
    LISTING_STATUS.cancelled,
    at,
    listing.id,
    LISTING_STATUS.active,
  ]);
  if (changes !== 1) return null;
  const activityId = await recordActivity(db, {
    kind: ACTIVITY_KIND.cancel,
    item: await itemOf(db, listing),
    listingId: listing.id,
    from: listing.seller_address,
    price: readWei(listing.price),
    currency: listing.currency as Currency,
    at,
  });
  return { listingId: listing.id, activityId };
}

/** OfferAccepted: the stored offer accepted (seller, item), counted as a sale; the money and the item moved on chain. */
async function applyOfferAccepted(db: Sql, e: Extract<TradingEvent, { event: "offerAccepted" }>, at: number, contracts: ContractAddresses) {
  const offer = await chainOfferByHash(db, e.orderHash);
  if (!offer) return { type: "none", reason: "no stored offer" } as const;
  if (offer.status === OFFER_STATUS.accepted) return { type: "none", reason: "already accepted" } as const;
  const item = await itemOfToken(db, contracts, e.collection, e.tokenId.toString(), e.buyer);
  if (!item) return { type: "none", reason: "no item of the token" } as const;
  const soldAt = Math.max(at, offer.created_at + 1);
  // Accepted whatever closed it first here (an expiry or a cancel racing the block): the chain says it was filled.
  await db.run("update market_offers set status = ?, closed_at = ?, seller_address = ?, accepted_item_id = ? where id = ?", [
    OFFER_STATUS.accepted,
    soldAt,
    e.seller,
    item.id,
    offer.id,
  ]);
  const price = readWei(offer.price);
  const currency = offer.currency as Currency;
  const sale = { seller: e.seller, buyer: e.buyer, price, currency, at: soldAt, venue: LISTING_VENUE.chain };
  const listingId = await insertOfferSale(db, item, sale);
  const activityId = await recordChainSale(db, item, { listingId, from: e.seller, to: e.buyer, price, currency, at: soldAt });
  return {
    type: "offerAccepted",
    offerId: offer.id,
    activityId,
    listingId,
    at: soldAt,
    nftType: item.nft_type,
    currency,
    price: price.toString(),
  } as const;
}

async function applyEvent(db: Sql, e: TradingEvent, contracts: ContractAddresses): Promise<Effect> {
  const at = Number(e.time) * 1000;
  if (e.event === "offerAccepted") return await applyOfferAccepted(db, e, at, contracts);
  if (e.event === "offerCancelled") {
    const offer = await chainOfferByHash(db, e.orderHash);
    return { type: "offersClosed", offerIds: offer ? await closeChainOffers(db, [offer.id], at) : [] };
  }
  if (e.event === "counter") {
    const listings = await db.all<ListingRow>("select * from market_listings where status = 0 and venue = ? and seller_address = ?", [
      LISTING_VENUE.chain,
      e.seller,
    ]);
    const closed = [];
    for (const listing of listings) {
      if (BigInt(listing.counter!) >= e.counter) continue;
      const done = await cancelListing(db, listing, at);
      if (done) closed.push(done);
    }
    // One counter for listings and offers (decision 0024): the account's older offers end too.
    const offerIds = await closeChainOffers(db, await chainOffersBelowCounter(db, e.seller, e.counter), at);
    return { type: "counter", closed, offers: { type: "offersClosed", offerIds } };
  }
  const listing = await db.get<ListingRow>("select * from market_listings where order_hash = ?", [e.orderHash]);
  if (!listing) return { type: "none", reason: "no stored listing" };
  if (e.event === "cancelled") {
    const done = await cancelListing(db, listing, at);
    return done ? { type: "closed", closed: [done] } : { type: "none", reason: "not active" };
  }
  if (listing.status === LISTING_STATUS.sold) return { type: "none", reason: "already sold" };
  const soldAt = closedAt(listing, at);
  // Sold whatever closed it first here (an expiry sweep racing the block): the chain says it was filled.
  await db.run("update market_listings set status = ?, buyer_address = ?, closed_at = ? where id = ?", [
    LISTING_STATUS.sold,
    e.buyer,
    soldAt,
    listing.id,
  ]);
  const item = await itemOf(db, listing);
  const price = readWei(listing.price);
  const currency = listing.currency as Currency;
  const activityId = await recordChainSale(db, item, {
    listingId: listing.id,
    from: listing.seller_address,
    to: e.buyer,
    price,
    currency,
    at: soldAt,
  });
  return {
    type: "sold",
    listingId: listing.id,
    previousStatus: listing.status,
    previousClosedAt: listing.closed_at,
    activityId,
    at: soldAt,
  };
}

/** Takes back what an event of a vanished block did: the listing active (or as it was) again, its log and volume gone. */
async function undo(db: Sql, effect: Effect): Promise<void> {
  if (effect.type === "none") return;
  if (effect.type === "counter") {
    await reopenListings(db, effect.closed);
    return await undoOfferEffect(db, effect.offers, async () => {});
  }
  if (effect.type === "offersClosed") return await undoOfferEffect(db, effect, async () => {});
  if (effect.type === "offerAccepted") {
    return await undoOfferEffect(db, effect, async (activityId) => {
      await db.run("delete from market_activity where id = ?", [activityId]);
      // Effects stored before offer sales had a listing (market_024) have none.
      if (effect.listingId !== undefined) await db.run("delete from market_listings where id = ?", [effect.listingId]);
      await rebuildSaleDays(db, Math.floor(effect.at / DAY), Math.floor(effect.at / DAY));
      await removeDailyVolume(db, effect.at, effect.nftType, effect.currency as Currency, BigInt(effect.price), effect.listingId ?? null);
    });
  }
  if (effect.type === "sold") {
    const listing = (await db.get<ListingRow>("select * from market_listings where id = ?", [effect.listingId]))!;
    const active = effect.previousStatus === LISTING_STATUS.active;
    // Active again only while the item has no other active listing (the one-active-listing key).
    await db.run(
      `update market_listings set status = ?, buyer_address = null, closed_at = ? where id = ?
       and (? = 0 or not exists (select 1 from market_listings other where other.item_id = ? and other.status = 0))`,
      [effect.previousStatus, effect.previousClosedAt, listing.id, active ? 1 : 0, listing.item_id],
    );
    await db.run("delete from market_activity where id = ?", [effect.activityId]);
    await rebuildSaleDays(db, Math.floor(effect.at / DAY), Math.floor(effect.at / DAY));
    await removeDailyVolume(
      db,
      effect.at,
      (await itemOf(db, listing)).nft_type,
      listing.currency as Currency,
      readWei(listing.price),
      listing.id,
    );
    return;
  }
  await reopenListings(db, effect.closed);
}

/** Takes back cancels of vanished events: each listing active again (while its item has no other), its cancel unlogged. */
export async function reopenListings(db: Sql, closed: readonly ClosedListing[]): Promise<void> {
  for (const { listingId, activityId } of closed) {
    await db.run(
      `update market_listings set status = 0, closed_at = null where id = ? and status = ?
       and not exists (select 1 from market_listings other where other.item_id = market_listings.item_id and other.status = 0)`,
      [listingId, LISTING_STATUS.cancelled],
    );
    await db.run("delete from market_activity where id = ?", [activityId]);
  }
}

/** The trading stream's cursor and applied events, for the indexer's reorg check. */
export const TRADING: StoredStream = storedStream(TRADING_STREAM, "market_trading_events", (db, effect: Effect) => undo(db, effect));

export interface TradingRange extends StreamRange<TradingEvent> {
  toTime: bigint;
}

/** Applies a range's events in chain order, each once, and moves the cursor; false when another run moved it first. */
export async function applyTradingRange(db: Sql, w: TradingRange, contracts: ContractAddresses): Promise<boolean> {
  const apply = async (e: TradingEvent) => ({ effect: await applyEvent(db, e, contracts), columns: { event: e.event } });
  return applyStreamRange(db, TRADING, w, apply, w.toTime);
}

/**
 * The order hashes of the active chain listings of these tokens (the transfers stream asks the chain about them).
 * Active chain listings are few, so they are read whole and matched here rather than by a list of every token moved.
 */
export async function listedOrders(db: Sql, tokens: Iterable<{ tokenId: bigint }>): Promise<Hash[]> {
  const ids = new Set([...tokens].map((token) => token.tokenId.toString()));
  if (!ids.size) return [];
  const rows = await db.all<{ order_hash: Hash; token_id: string }>(
    "select order_hash, token_id from market_listings where status = 0 and venue = ?",
    [LISTING_VENUE.chain],
  );
  return rows.filter((row) => ids.has(row.token_id)).map((row) => row.order_hash);
}

/** The order hashes of the active ERC-1155 chain listings of these sellers (the SparkItems stream asks the chain about them). */
export async function listedStackOrders(db: Sql, sellers: Iterable<string>): Promise<Hash[]> {
  const wanted = new Set([...sellers].map((seller) => seller.toLowerCase()));
  if (!wanted.size) return [];
  const rows = await db.all<{ order_hash: Hash; seller_address: string }>(
    "select order_hash, seller_address from market_listings where status = 0 and venue = ? and standard = ?",
    [LISTING_VENUE.chain, LISTING_STANDARD.erc1155],
  );
  return rows.filter((row) => wanted.has(row.seller_address.toLowerCase())).map((row) => row.order_hash);
}

/**
 * The SparkItems stream's part: a listed stack now holding `amount`, less than its listing sells, cannot be filled,
 * so the listing ends, unless its order was filled on chain (`filled`): then the Sale event closes it as a sale.
 */
export async function endShortStackListing(
  db: Sql,
  itemId: number,
  amount: bigint,
  filled: ReadonlySet<string>,
  now: number,
): Promise<ClosedListing | null> {
  const listing = await db.get<ListingRow>("select * from market_listings where item_id = ? and status = 0 and venue = ?", [
    itemId,
    LISTING_VENUE.chain,
  ]);
  if (!listing || BigInt(listing.amount!) <= amount) return null;
  if (filled.has(listing.order_hash!.toLowerCase())) return null;
  return await cancelListing(db, listing, now);
}

/** The latest chain listing of each of these items when a cancel ended it: a move that ended it may be gone in a reorg. */
export async function cancelledChainListings(db: Sql, itemIds: readonly number[]): Promise<ListingRow[]> {
  const cancelled: ListingRow[] = [];
  for (const itemId of itemIds) {
    const latest = await db.get<ListingRow>("select * from market_listings where item_id = ? and venue = ? order by id desc limit 1", [
      itemId,
      LISTING_VENUE.chain,
    ]);
    if (latest?.status === LISTING_STATUS.cancelled) cancelled.push(latest);
  }
  return cancelled;
}

/** A cancelled chain listing active again, its cancel unlogged (reopenListings); false when it was not reopened. */
export async function reopenListing(db: Sql, listingId: number): Promise<boolean> {
  const cancel = await db.get<{ id: number }>("select id from market_activity where listing_id = ? and kind = ? order by id desc limit 1", [
    listingId,
    ACTIVITY_KIND.cancel,
  ]);
  if (!cancel) return false;
  await reopenListings(db, [{ listingId, activityId: cancel.id }]);
  return (
    (await db.get<{ status: number }>("select status from market_listings where id = ?", [listingId]))?.status === LISTING_STATUS.active
  );
}

/**
 * The transfers stream's part: the item changed holder to `holder`, so its active chain listing (if any) ends,
 * unless its order was filled on chain (`filled`): then the Sale event closes it as a sale.
 */
export async function endMovedListing(db: Sql, itemId: number, holder: string, filled: ReadonlySet<string>, now: number): Promise<void> {
  const listing = await db.get<ListingRow>("select * from market_listings where item_id = ? and status = 0 and venue = ?", [
    itemId,
    LISTING_VENUE.chain,
  ]);
  if (!listing || listing.seller_address.toLowerCase() === holder.toLowerCase()) return;
  if (filled.has(listing.order_hash!.toLowerCase())) return;
  await cancelListing(db, listing, now);
}
