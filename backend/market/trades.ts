/**
 * The product §4 listing state machine (held → on sale → held | sold) and transfers. Each step runs inside one
 * MarketDb transaction, after orders.ts has verified the order's signature.
 * Each re-checks every rule, so nothing between the two can slip by, and is all-or-nothing.
 */
import { ApiError } from "../http";
import { sameAddress } from "~core/address";
import type { Currency } from "~core/money";
import type { TokenOwner } from "./token-owners";
import { ACTIVITY_KIND, LISTING_STATUS, LOCATION } from "./tables";
import { accrueRebates, addDailyVolume, recordActivity } from "./activity";
import type { MarketDb } from "./db";
import { type ItemRow, type ListingRow, MSG, activeListing, insertListing, lastListing, requireItem } from "./items";
import { credit, debit } from "./ledger";
import { padWei, readWei } from "./money";
import { bumpOrderCounter, ORDER_MSG, orderCounter, spendNonce } from "./orders";
import { hasExpiredListings } from "./query";

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
export function requireSellable(db: MarketDb, wallet: string, input: SellInput): ItemRow {
  const item = requireItem(db, input.nftType, input.tokenId);
  if (!sameAddress(item.owner_address, wallet)) throw new ApiError(403, MSG.notOwner);
  if (!sameAddress(input.ownerAddress, item.owner_address)) {
    throw new ApiError(400, "ownerAddress: expected the item's current owner");
  }
  if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
  if (activeListing(db, item.id)) throw new ApiError(409, MSG.alreadyOnSale);
  return item;
}

/** held → on sale. */
export function sell(db: MarketDb, caller: TokenOwner, input: SellInput, order: SignedFields, now: number) {
  const wallet = requireCallerWallet(caller, input.address);
  const item = requireSellable(db, wallet, input);
  spendNonce(db, wallet, order.nonce, "sell", now);
  const listingId = insertListing(db, item, {
    seller: wallet,
    price: input.price,
    currency: input.currency,
    listedAt: now,
    nonce: order.nonce.toString(),
    expiry: Number(order.expiry),
    signature: order.signature,
  });
  recordActivity(db, { kind: ACTIVITY_KIND.list, item, listingId, from: wallet, price: input.price, currency: input.currency, at: now });
  return { listingId, item };
}

/** The seller's active listing of an item, or the reason there is none to cancel. */
export function requireCancellable(db: MarketDb, wallet: string, input: { tokenId: string; nftType: number }) {
  const item = requireItem(db, input.nftType, input.tokenId);
  const listing = activeListing(db, item.id);
  if (!listing) throw new ApiError(409, MSG.notOnSale);
  if (!sameAddress(listing.seller_address, wallet)) throw new ApiError(403, MSG.notSeller);
  return { item, listing };
}

/** on sale → held. */
export function cancel(
  db: MarketDb,
  caller: TokenOwner,
  input: { tokenId: string; nftType: number; address: string },
  order: SignedFields,
  now: number,
) {
  const wallet = requireCallerWallet(caller, input.address);
  const { item, listing } = requireCancellable(db, wallet, input);
  spendNonce(db, wallet, order.nonce, "cancel", now);
  if (!closeListing(db, item, listing, now, order.signature)) throw listingGone(db, listing.id);
  return { listingId: listing.id, item };
}

/** "Cancel all listings": bumps the wallet's counter, which voids every sell order signed before, and closes them. */
export function cancelAll(db: MarketDb, caller: TokenOwner, input: { address: string; counter: bigint }, order: SignedFields, now: number) {
  const wallet = requireCallerWallet(caller, input.address);
  if (input.counter !== orderCounter(db, wallet))
    throw new ApiError(409, "Your listings have changed since you signed. Please sign again.");
  spendNonce(db, wallet, order.nonce, "cancelAll", now);
  const counter = bumpOrderCounter(db, wallet);
  const listings = db.all<ListingRow>("select * from market_listings where status = 0 and seller_address = ?", [wallet]);
  for (const listing of listings) {
    const item = db.get<ItemRow>("select * from market_items where id = ?", [listing.item_id])!;
    closeListing(db, item, listing, now, order.signature);
  }
  return { cancelled: listings.length, counter };
}

/**
 * Cancels an active listing (by its seller, or because the item leaves the game) and logs it. Conditional on the
 * listing still being on sale: false (and nothing logged) when another writer sold or closed it first.
 */
export function closeListing(db: MarketDb, item: ItemRow, listing: ListingRow, now: number, signature: string | null): boolean {
  const closed = db.run("update market_listings set status = ?, closed_at = ?, cancel_signature = ? where id = ? and status = ?", [
    LISTING_STATUS.cancelled,
    now,
    signature,
    listing.id,
    LISTING_STATUS.active,
  ]).changes;
  if (closed !== 1) return false;
  recordActivity(db, {
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
export function expireListings(db: MarketDb, now: number): number {
  const expired = db.all<ListingRow>("select * from market_listings where status = 0 and expiry is not null and expiry <= ?", [
    Math.floor(now / 1000),
  ]);
  for (const listing of expired) {
    const item = db.get<ItemRow>("select * from market_items where id = ?", [listing.item_id])!;
    closeListing(db, item, listing, listing.expiry! * 1000, null);
  }
  return expired.length;
}

/**
 * Listings past their signed expiry leave the market before it is read. Unlike the steps above it opens its
 * own transaction (only when there is something to expire), so call it holding the connection, outside one.
 */
export function sweepExpiredListings(db: MarketDb, now: number): void {
  if (hasExpiredListings(db, Math.floor(now / 1000))) db.transaction(() => expireListings(db, now));
}

export interface BuyInput {
  tokenId: string;
  nftType: number;
  /** The listing the buyer agreed to: a relisting of the item, even at the same price, is refused. */
  listingId: number;
  price: bigint;
}

/** The listing a buyer may take at `price`, or the reason they may not (checked before signing and inside the sale). */
export function requireBuyable(db: MarketDb, buyer: string, input: BuyInput, now: number) {
  const item = requireItem(db, input.nftType, input.tokenId);
  const listing = activeListing(db, item.id);
  if (!listing) {
    throw new ApiError(409, lastListing(db, item.id)?.status === LISTING_STATUS.sold ? MSG.alreadySold : MSG.notOnSale);
  }
  if (listing.id !== input.listingId) throw new ApiError(409, MSG.listingChanged);
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
function listingGone(db: MarketDb, listingId: number): ApiError {
  const row = db.get<{ status: number }>("select status from market_listings where id = ?", [listingId]);
  if (row?.status === LISTING_STATUS.sold) return new ApiError(409, MSG.alreadySold);
  return new ApiError(409, row?.status === LISTING_STATUS.active ? MSG.listingChanged : MSG.notOnSale);
}

/** on sale → sold: the buyer pays the seller from their game balances and becomes the owner. */
export function buy(db: MarketDb, caller: TokenOwner, input: BuyInput & { address: string }, order: SignedFields, now: number) {
  const buyer = requireCallerWallet(caller, input.address);
  const { item, listing, price, currency } = requireBuyable(db, buyer, input, now);
  spendNonce(db, buyer, order.nonce, "buy", now);
  // The sale itself, first and conditional: only the listing the buyer confirmed (its id, price and seller), and only
  // while it is still on sale. Another writer who sold, cancelled or replaced it after the checks above leaves 0 rows.
  const taken = db.run(
    `update market_listings set status = ?, buyer_address = ?, closed_at = ?, buy_signature = ?
     where id = ? and status = ? and price = ? and seller_address = ?`,
    [LISTING_STATUS.sold, buyer, now, order.signature, input.listingId, LISTING_STATUS.active, padWei(input.price), listing.seller_address],
  ).changes;
  if (taken !== 1) throw listingGone(db, input.listingId);
  debit(db, buyer, currency, price);
  credit(db, listing.seller_address, currency, price);
  db.run("update market_items set owner_address = ?, updated_at = ? where id = ?", [buyer, now, item.id]);
  const activityId = recordActivity(db, {
    kind: ACTIVITY_KIND.sale,
    item,
    listingId: listing.id,
    from: listing.seller_address,
    to: buyer,
    price,
    currency,
    at: now,
  });
  addDailyVolume(db, now, item.nft_type, currency, price);
  accrueRebates(db, activityId, [buyer, listing.seller_address], currency, price, now);
  return { item, listing, buyer, price, currency, activityId };
}

/** The item a wallet may give away to `to`, or the reason it may not. */
export function requireTransferable(db: MarketDb, from: string, input: { tokenId: string; nftType: number; to: string }) {
  if (sameAddress(from, input.to)) throw new ApiError(400, ORDER_MSG.sameAddress);
  const item = requireItem(db, input.nftType, input.tokenId);
  if (!sameAddress(item.owner_address, from)) throw new ApiError(403, MSG.notOwner);
  if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
  return item;
}

/** Gives an in-game item to another wallet. Its listing, if any, dies: the item moved. */
export function transfer(
  db: MarketDb,
  caller: TokenOwner,
  input: { tokenId: string; nftType: number; address: string; to: string },
  order: SignedFields,
  now: number,
) {
  const from = requireCallerWallet(caller, input.address);
  const item = requireTransferable(db, from, input);
  spendNonce(db, from, order.nonce, "transfer", now);
  const listing = activeListing(db, item.id);
  if (listing) closeListing(db, item, listing, now, order.signature);
  db.run("update market_items set owner_address = ?, updated_at = ? where id = ?", [input.to, now, item.id]);
  recordActivity(db, { kind: ACTIVITY_KIND.transfer, item, listingId: null, from, to: input.to, price: 0n, currency: "FIRE", at: now });
  return { item: { ...item, owner_address: input.to } };
}
