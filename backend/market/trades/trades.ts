/**
 * The product §4 listing state machine (held → on sale → held | sold) and transfers. Each step runs inside one
 * MarketDb transaction, after orders.ts has verified the order's signature.
 * Each re-checks every rule, so nothing between the two can slip by, and is all-or-nothing.
 */
import { ApiError } from "../../http";
import { sameAddress } from "~core/address";
import type { Currency } from "~core/money";
import type { TokenOwner } from "../shared/token-owners";
import { ACTIVITY_KIND, LISTING_STATUS, LISTING_VENUE, LOCATION } from "../shared/tables";
import { CHAIN_LISTING_MSG, hasExpiredListings } from "../listings";
import { accrueRebates, addDailyVolume, recordActivity } from "../shared/activity";
import type { MarketDb, Sql } from "../shared/db";
import { type ItemRow, type ListingRow, MSG, activeListing, insertListing, lastListing, requireItem } from "../shared/items";
import { alertWatches } from "../watches";
import { credit, debit } from "../shared/ledger";
import { padWei, readWei } from "../shared/money";
import { bumpOrderCounter, lockOrderCounter, ORDER_MSG, spendNonce } from "./orders";
import type { SaleFacets } from "../shared/sale-days";

const COUNTER_MOVED = "Your listings have changed since you signed. Please sign again.";

export interface SignedFields {
  nonce: bigint;
  expiry: bigint;
  signature: string;
}

export interface SellInput {
  tokenId: string;
  nftType: number;
  ownerAddress: string;
  address: string;
  price: bigint;
  currency: Currency;
}

export function requireCallerWallet(caller: TokenOwner, address: string): string {
  if (!caller.walletAddress || !sameAddress(caller.walletAddress, address)) throw new ApiError(403, MSG.notYourWallet);
  return caller.walletAddress;
}

/** The checks a sell must pass, before anything is signed and again inside the transaction. */
export async function requireSellable(db: Sql, wallet: string, input: SellInput): Promise<ItemRow> {
  const item = await requireItem(db, input.nftType, input.tokenId);
  if (!sameAddress(item.owner_address, wallet)) throw new ApiError(403, MSG.notOwner);
  if (!sameAddress(input.ownerAddress, item.owner_address)) {
    throw new ApiError(400, "ownerAddress: expected the item's current owner");
  }
  if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
  if (await activeListing(db, item.id)) throw new ApiError(409, MSG.alreadyOnSale);
  return item;
}

/** held → on sale, under the cancel-all counter the seller signed (`counter`). */
export async function sell(db: Sql, caller: TokenOwner, input: SellInput & { counter: bigint }, order: SignedFields, now: number) {
  const wallet = requireCallerWallet(caller, input.address);
  const item = await requireSellable(db, wallet, input);
  // Locks the counter row: a cancel-all either commits first (and this order, signed under the old counter, is
  // refused) or waits for this listing and closes it.
  if ((await lockOrderCounter(db, wallet)) !== input.counter) throw new ApiError(409, COUNTER_MOVED);
  await spendNonce(db, wallet, order.nonce, "sell", now);
  // The check above only chooses: a concurrent sell of the same item meets the one-active-listing key.
  const listingId = await insertListing(db, item, {
    seller: wallet,
    price: input.price,
    currency: input.currency,
    listedAt: now,
    nonce: order.nonce.toString(),
    expiry: Number(order.expiry),
    signature: order.signature,
  });
  if (listingId === null) throw new ApiError(409, MSG.alreadyOnSale);
  await alertWatches(db, listingId, now, caller.userName);
  await recordActivity(db, {
    kind: ACTIVITY_KIND.list,
    item,
    listingId,
    from: wallet,
    price: input.price,
    currency: input.currency,
    at: now,
  });
  return { listingId, item };
}

/** The seller's active listing of an item, or the reason there is none to cancel. */
export async function requireCancellable(db: Sql, wallet: string, input: { tokenId: string; nftType: number }) {
  const item = await requireItem(db, input.nftType, input.tokenId);
  const listing = await activeListing(db, item.id);
  if (!listing) throw new ApiError(409, MSG.notOnSale);
  if (!sameAddress(listing.seller_address, wallet)) throw new ApiError(403, MSG.notSeller);
  // The signed order stays fillable on chain whatever the ledger says: only the chain can cancel it.
  if (listing.venue === LISTING_VENUE.chain) throw new ApiError(409, CHAIN_LISTING_MSG.onChainCancel);
  return { item, listing };
}

/** on sale → held. */
export async function cancel(
  db: Sql,
  caller: TokenOwner,
  input: { tokenId: string; nftType: number; address: string },
  order: SignedFields,
  now: number,
) {
  const wallet = requireCallerWallet(caller, input.address);
  const { item, listing } = await requireCancellable(db, wallet, input);
  await spendNonce(db, wallet, order.nonce, "cancel", now);
  if (!(await closeListing(db, item, listing, now, order.signature))) throw await listingGone(db, listing.id);
  return { listingId: listing.id, item };
}

/** "Cancel all listings": bumps the wallet's counter, which voids every sell order signed before, and closes them. */
export async function cancelAll(
  db: Sql,
  caller: TokenOwner,
  input: { address: string; counter: bigint },
  order: SignedFields,
  now: number,
) {
  const wallet = requireCallerWallet(caller, input.address);
  await spendNonce(db, wallet, order.nonce, "cancelAll", now);
  if (!(await bumpOrderCounter(db, wallet, input.counter))) throw new ApiError(409, COUNTER_MOVED);
  const counter = input.counter + 1n;
  // The ledger's listings only: chain ones end with the chain's incrementCounter (indexer/trading.ts).
  const listings = await db.all<ListingRow>("select * from market_listings where status = 0 and venue = ? and seller_address = ?", [
    LISTING_VENUE.game,
    wallet,
  ]);
  for (const listing of listings) {
    const item = (await db.get<ItemRow>("select * from market_items where id = ?", [listing.item_id]))!;
    await closeListing(db, item, listing, now, order.signature);
  }
  return { cancelled: listings.length, counter };
}

/**
 * Cancels an active listing (by its seller, or because the item leaves the game) and logs it. Conditional on the
 * listing still being on sale: false (and nothing logged) when another writer sold or closed it first.
 */
export async function closeListing(db: Sql, item: ItemRow, listing: ListingRow, now: number, signature: string | null): Promise<boolean> {
  const closed = (
    await db.run("update market_listings set status = ?, closed_at = ?, cancel_signature = ? where id = ? and status = ?", [
      LISTING_STATUS.cancelled,
      now,
      signature,
      listing.id,
      LISTING_STATUS.active,
    ])
  ).changes;
  if (closed !== 1) return false;
  await recordActivity(db, {
    kind: ACTIVITY_KIND.cancel,
    item,
    listingId: listing.id,
    from: listing.seller_address,
    price: readWei(listing.price),
    currency: listing.currency as Currency,
    at: now,
  });
  return true;
}

/** Listings whose signed expiry has passed are closed like a cancel, at their expiry time. */
export async function expireListings(db: Sql, now: number): Promise<number> {
  const expired = await db.all<ListingRow>("select * from market_listings where status = 0 and expiry is not null and expiry <= ?", [
    Math.floor(now / 1000),
  ]);
  for (const listing of expired) {
    const item = (await db.get<ItemRow>("select * from market_items where id = ?", [listing.item_id]))!;
    await closeListing(db, item, listing, listing.expiry! * 1000, null);
  }
  return expired.length;
}

/**
 * Listings past their signed expiry leave the market before it is read. Unlike the steps above it opens its
 * own transaction (only when there is something to expire), so call it outside one.
 */
export async function sweepExpiredListings(db: MarketDb, now: number): Promise<void> {
  if (await hasExpiredListings(db, Math.floor(now / 1000))) await db.write((tx) => expireListings(tx, now));
}

export interface BuyInput {
  tokenId: string;
  nftType: number;
  /** The listing the buyer agreed to: a relisting of the item, even at the same price, is refused. */
  listingId: number;
  price: bigint;
}

/** The listing a buyer may take at `price`, or the reason they may not (checked before signing and inside the sale). */
export async function requireBuyable(db: Sql, buyer: string, input: BuyInput, now: number) {
  const item = await requireItem(db, input.nftType, input.tokenId);
  const listing = await activeListing(db, item.id);
  if (!listing) {
    throw new ApiError(409, (await lastListing(db, item.id))?.status === LISTING_STATUS.sold ? MSG.alreadySold : MSG.notOnSale);
  }
  if (listing.id !== input.listingId) throw new ApiError(409, MSG.listingChanged);
  if (listing.venue === LISTING_VENUE.chain) throw new ApiError(409, CHAIN_LISTING_MSG.onChainBuy);
  if (listing.expiry !== null && listing.expiry * 1000 <= now) throw new ApiError(409, MSG.expired);
  if (sameAddress(listing.seller_address, buyer)) throw new ApiError(400, MSG.ownItem);
  const price = readWei(listing.price);
  const currency = listing.currency as Currency;
  if (input.price !== price) {
    throw new ApiError(409, `The price has changed: the item now costs ${price} wei ${currency}`);
  }
  return { item, listing, price, currency };
}

/** The 409 for a buy whose listing another writer sold, cancelled or changed after it was checked. */
async function listingGone(db: Sql, listingId: number): Promise<ApiError> {
  const row = await db.get<{ status: number }>("select status from market_listings where id = ?", [listingId]);
  if (row?.status === LISTING_STATUS.sold) return new ApiError(409, MSG.alreadySold);
  return new ApiError(409, row?.status === LISTING_STATUS.active ? MSG.listingChanged : MSG.notOnSale);
}

/** on sale → sold: the buyer pays the seller from their game balances and becomes the owner. */
export async function buy(db: Sql, caller: TokenOwner, input: BuyInput & { address: string }, order: SignedFields, now: number) {
  const buyer = requireCallerWallet(caller, input.address);
  const { item, listing, price, currency } = await requireBuyable(db, buyer, input, now);
  await spendNonce(db, buyer, order.nonce, "buy", now);
  // The sale itself, first and conditional: only the listing the buyer confirmed (its id, price and seller), and only
  // while it is still on sale. Another writer who sold, cancelled or replaced it after the checks above leaves 0 rows.
  // It returns the sold listing's columns the sale's rollup cells are kept by, as this statement left them (so the
  // rollups need not read them again).
  const taken = await db.all<SaleFacets>(
    `update market_listings set status = ?, buyer_address = ?, closed_at = ?, buy_signature = ?
     where id = ? and status = ? and price = ? and seller_address = ? returning nft_type, grade, camp, level, currency`,
    [LISTING_STATUS.sold, buyer, now, order.signature, input.listingId, LISTING_STATUS.active, padWei(input.price), listing.seller_address],
  );
  if (taken.length !== 1) throw await listingGone(db, input.listingId);
  const activityId = await settleSale(db, {
    item,
    listingId: listing.id,
    seller: listing.seller_address,
    buyer,
    price,
    currency,
    now,
    facets: taken[0],
  });
  return { item, listing, buyer, price, currency, activityId };
}

/**
 * A ledger sale of an in-game item, once the caller has taken the order it fills (a listing, or an offer's sold
 * listing, insertOfferSale): the buyer
 * pays the seller from their game balances, the item changes hands (conditional on the seller still holding it), and
 * the sale is logged, counted in the day's volume and accrues rebates. Returns the sale's activity id.
 */
export async function settleSale(
  db: Sql,
  sale: {
    item: ItemRow;
    listingId: number;
    seller: string;
    buyer: string;
    price: bigint;
    currency: Currency;
    now: number;
    /** The sold listing's rollup columns, when the caller's statement returned them. */
    facets?: SaleFacets;
  },
): Promise<number> {
  const { item, seller, buyer, price, currency, now } = sale;
  // The two balances in address order. No lock shared by all sales comes first any more (decision 0034), so two sales
  // between the same two wallets in opposite directions, buyer first, would each hold one balance and wait for the
  // other: a deadlock, which PostgreSQL breaks after a second and the retry rule runs again.
  const moves = [() => debit(db, buyer, currency, price), () => credit(db, seller, currency, price)];
  for (const move of buyer <= seller ? moves : moves.reverse()) await move();
  await moveItem(db, item, seller, buyer, now);
  const activityId = await recordActivity(db, {
    kind: ACTIVITY_KIND.sale,
    item,
    listingId: sale.listingId,
    from: seller,
    to: buyer,
    price,
    currency,
    at: now,
    facets: sale.facets,
  });
  await addDailyVolume(db, now, item.nft_type, currency, price, sale.listingId);
  await accrueRebates(db, activityId, [buyer, seller], currency, price, now);
  return activityId;
}

/**
 * Gives an in-game item from `from` to `to`, conditional on `from` still holding it in the game: a concurrent sale
 * or transfer that moved it first leaves 0 rows, and this one is refused rather than taking the item back.
 */
async function moveItem(db: Sql, item: ItemRow, from: string, to: string, now: number): Promise<void> {
  const { changes } = await db.run(
    "update market_items set owner_address = ?, updated_at = ? where id = ? and owner_address = ? and location = ?",
    [to, now, item.id, from, LOCATION.game],
  );
  if (changes !== 1) throw new ApiError(409, MSG.itemMoved);
}

/** The item a wallet may give away to `to`, or the reason it may not. */
export async function requireTransferable(db: Sql, from: string, input: { tokenId: string; nftType: number; to: string }) {
  if (sameAddress(from, input.to)) throw new ApiError(400, ORDER_MSG.sameAddress);
  const item = await requireItem(db, input.nftType, input.tokenId);
  if (!sameAddress(item.owner_address, from)) throw new ApiError(403, MSG.notOwner);
  if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
  return item;
}

/** Gives an in-game item to another wallet. Its listing, if any, dies: the item moved. */
export async function transfer(
  db: Sql,
  caller: TokenOwner,
  input: { tokenId: string; nftType: number; address: string; to: string },
  order: SignedFields,
  now: number,
) {
  const from = requireCallerWallet(caller, input.address);
  const item = await requireTransferable(db, from, input);
  await spendNonce(db, from, order.nonce, "transfer", now);
  const listing = await activeListing(db, item.id);
  if (listing) await closeListing(db, item, listing, now, order.signature);
  await moveItem(db, item, from, input.to, now);
  await recordActivity(db, {
    kind: ACTIVITY_KIND.transfer,
    item,
    listingId: null,
    from,
    to: input.to,
    price: 0n,
    currency: "FIRE",
    at: now,
  });
  return { item: { ...item, owner_address: input.to } };
}
