/**
 * Offers (issue 30, decision 0023): a buyer's signed Offer order (core/orders.ts) for one item, or for any item of a
 * market filter (a collection offer). Nothing is held aside: the buyer's game balance is checked when the offer is
 * made and again when it is accepted, and an offer it no longer covers is shown as such and refused. Accepting an
 * offer on a game item is a ledger sale (trades/trades.ts settleSale: the buy's fees, activity and page generation); an
 * offer's `venue` says which way it is accepted, so a chain offer's acceptance goes through the Trading contract.
 * Every write is conditional on the offer still being open (status 0): of concurrent accepts, exactly one wins.
 *
 * This file makes, cancels and accepts offers; what an offer is lives in offer-terms.ts, the pages of offers in
 * offer-lists.ts.
 */
import { getAddress } from "viem";
import { sameAddress } from "~core/address";
import { MAX_OPEN_OFFERS, MAX_OPEN_OFFERS_PER_ITEM } from "~core/constants";
import type { Currency } from "~core/money";
import { LISTING_DURATIONS } from "~core/orders";
import { ApiError } from "../../http";
import type { Sql } from "../shared/db";
import { type ItemRow, MSG, activeListing, insertOfferSale, requireItem } from "../shared/items";
import { balanceOf } from "../shared/ledger";
import { padWei, readWei } from "../shared/money";
import { bumpOrderCounter, lockOrderCounter, spendNonce, closeListing, settleSale, type SignedFields } from "../trades";
import { LISTING_VENUE, LOCATION } from "../shared/tables";
import {
  OFFER_COUNTERS,
  OFFER_MSG,
  OFFER_STATUS,
  OFFER_VENUE,
  type OfferRow,
  canonicalOfferFilter,
  covers,
  nowSeconds,
  queryOf,
} from "./offer-terms";

/** The longest an offer may run: the longest listing, and a few minutes for clocks. */
const MAX_OFFER_SECONDS = Math.max(...LISTING_DURATIONS.map((d) => d.days)) * 86_400 + 5 * 60;

async function isPayable(db: Sql, offer: OfferRow): Promise<boolean> {
  return (await balanceOf(db, offer.buyer_address, offer.currency as Currency)) >= readWei(offer.price);
}

export interface OfferInput {
  address: string;
  nftType: number;
  tokenId?: string;
  filter?: string;
  label?: string;
  price: bigint;
  currency: Currency;
}

/** The subject a buyer's offer rules lock (decision 0031): caps and holdings are counted after it is taken. */
export const offerSubject = (buyer: string) => `market_offers:${buyer.toLowerCase()}`;

/** A buyer's address as it may be stored (checksummed, or as the caller's record spells it). */
const spellings = (address: string) => [getAddress(address), address.toLowerCase()];

/** What one offer is on: an item, or a collection offer's type and canonical filter. */
export interface OfferTarget {
  itemId: number | null;
  nftType: number;
  filter: string;
}

/**
 * The caps on a buyer's open offers (issue 43), game and chain offers together: MAX_OPEN_OFFERS_PER_ITEM on one item
 * (or one type and filter, for a collection offer) and MAX_OPEN_OFFERS in all. Inside a write transaction the caller
 * takes offerSubject(buyer) first, so concurrent posts count each other (decision 0031); outside one, the same check
 * answers early, before anything is signed.
 */
export async function requireOfferRoom(db: Sql, buyer: string, target: OfferTarget, now: number): Promise<void> {
  const [a, b] = spellings(buyer);
  const open = `buyer_address in (?, ?) and status = 0 and expiry > ?`;
  const all = await db.get<{ n: number }>(`select count(*) as n from market_offers where ${open}`, [a, b, nowSeconds(now)]);
  if (Number(all?.n ?? 0) >= MAX_OPEN_OFFERS) throw new ApiError(409, OFFER_MSG.tooMany);
  const same =
    target.itemId === null
      ? await db.get<{ n: number }>(
          `select count(*) as n from market_offers where ${open} and item_id is null and nft_type = ? and filter = ?`,
          [a, b, nowSeconds(now), target.nftType, target.filter],
        )
      : await db.get<{ n: number }>(`select count(*) as n from market_offers where ${open} and item_id = ?`, [
          a,
          b,
          nowSeconds(now),
          target.itemId,
        ]);
  if (Number(same?.n ?? 0) >= MAX_OPEN_OFFERS_PER_ITEM) {
    throw new ApiError(409, target.itemId === null ? OFFER_MSG.tooManyOnFilter : OFFER_MSG.tooManyOnItem);
  }
}

/** The sum of a buyer's open offers of one venue in one currency (wei). */
export async function openOffersTotal(db: Sql, buyer: string, venue: number, currency: string, now: number): Promise<bigint> {
  const rows = await db.all<{ price: string }>(
    "select price from market_offers where buyer_address in (?, ?) and status = 0 and expiry > ? and venue = ? and currency = ?",
    [...spellings(buyer), nowSeconds(now), venue, currency],
  );
  return rows.reduce((sum, row) => sum + readWei(row.price), 0n);
}

/** What an offer will be, or why it may not be made: checked before it is signed and again when it is stored. */
export async function requireOfferable(db: Sql, buyer: string, input: OfferInput, now: number) {
  let item: ItemRow | null = null;
  let filter = "";
  if (input.tokenId !== undefined) {
    item = await requireItem(db, input.nftType, input.tokenId);
    if (sameAddress(item.owner_address, buyer)) throw new ApiError(400, OFFER_MSG.ownItem);
    if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
  } else {
    filter = canonicalOfferFilter(input.filter ?? "", input.nftType).filter;
  }
  const balance = await balanceOf(db, buyer, input.currency);
  if (balance < input.price) throw new ApiError(409, OFFER_MSG.noFunds(input.currency));
  await requireOfferRoom(db, buyer, { itemId: item?.id ?? null, nftType: input.nftType, filter }, now);
  // Nothing is held aside, but a buyer's open game offers in a currency may not promise more than the balance holds.
  const promised = await openOffersTotal(db, buyer, OFFER_VENUE.game, input.currency, now);
  if (promised + input.price > balance) throw new ApiError(409, OFFER_MSG.overHoldings(input.currency));
  return { item, filter, label: item ? "" : (input.label ?? "").trim(), venue: OFFER_VENUE.game };
}

export function requireOfferExpiry(expiry: bigint, now: number) {
  if (expiry > BigInt(nowSeconds(now) + MAX_OFFER_SECONDS)) throw new ApiError(400, OFFER_MSG.tooLong);
}

/** Stores a signed offer, under the offer counter the buyer signed (`counter`). */
export async function makeOffer(db: Sql, buyer: string, input: OfferInput & { counter: bigint }, order: SignedFields, now: number) {
  // Rivals of one buyer take turns from here: each counts the offers the ones before it stored (decision 0031).
  await db.lockSubject(offerSubject(buyer));
  const terms = await requireOfferable(db, buyer, input, now);
  // Locks the counter row: a cancel-all of offers commits first (and this offer is refused) or waits and closes it.
  if ((await lockOrderCounter(db, buyer, OFFER_COUNTERS)) !== input.counter) throw new ApiError(409, OFFER_MSG.counterMoved);
  await spendNonce(db, buyer, order.nonce, "offer", now);
  const row = await db.get<OfferRow>(
    `insert into market_offers (venue, buyer_address, nft_type, item_id, token_id, filter, label, price, currency, counter, nonce,
       expiry, signature, status, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?) returning *`,
    [
      terms.venue,
      buyer,
      input.nftType,
      terms.item?.id ?? null,
      terms.item?.token_id ?? null,
      terms.filter,
      terms.label,
      padWei(input.price),
      input.currency,
      input.counter.toString(),
      order.nonce.toString(),
      Number(order.expiry),
      order.signature,
      now,
    ],
  );
  return row!;
}

export async function requireOffer(db: Sql, offerId: number): Promise<OfferRow> {
  const offer = await db.get<OfferRow>("select * from market_offers where id = ?", [offerId]);
  if (!offer) throw new ApiError(404, OFFER_MSG.notFound);
  return offer;
}

/** The buyer's open offer, or why it cannot be cancelled. */
export async function requireCancellableOffer(db: Sql, buyer: string, offerId: number): Promise<OfferRow> {
  const offer = await requireOffer(db, offerId);
  if (!sameAddress(offer.buyer_address, buyer)) throw new ApiError(403, OFFER_MSG.notBuyer);
  if (offer.status !== OFFER_STATUS.active) throw new ApiError(409, OFFER_MSG.notOpen);
  return offer;
}

/** Closes an open offer; false when another writer accepted or closed it first. */
async function closeOffer(db: Sql, offerId: number, now: number, signature: string | null): Promise<boolean> {
  const { changes } = await db.run("update market_offers set status = ?, closed_at = ?, cancel_signature = ? where id = ? and status = 0", [
    OFFER_STATUS.cancelled,
    now,
    signature,
    offerId,
  ]);
  return changes === 1;
}

export async function cancelOffer(db: Sql, buyer: string, offerId: number, order: SignedFields, now: number) {
  await requireCancellableOffer(db, buyer, offerId);
  await spendNonce(db, buyer, order.nonce, "offerCancel", now);
  if (!(await closeOffer(db, offerId, now, order.signature))) throw new ApiError(409, OFFER_MSG.notOpen);
  return await requireOffer(db, offerId);
}

/** "Cancel all offers": bumps the buyer's offer counter, which voids every offer signed before, and closes them. */
export async function cancelAllOffers(db: Sql, buyer: string, counter: bigint, order: SignedFields, now: number) {
  await spendNonce(db, buyer, order.nonce, "offerCancelAll", now);
  if (!(await bumpOrderCounter(db, buyer, counter, OFFER_COUNTERS))) throw new ApiError(409, OFFER_MSG.counterMoved);
  const open = await db.all<{ id: number }>("select id from market_offers where buyer_address = ? and status = 0", [buyer]);
  let cancelled = 0;
  for (const { id } of open) if (await closeOffer(db, id, now, order.signature)) cancelled++;
  return { cancelled, counter: counter + 1n };
}

export interface AcceptInput {
  offerId: number;
  tokenId: string;
  nftType: number;
}

/**
 * The offer a holder may accept for their item, or why not (checked before the acceptance is signed and again in its
 * transaction): open, not expired, covering the item, which the holder holds, and still payable by the buyer.
 */
export async function requireAcceptable(db: Sql, seller: string, input: AcceptInput, now: number) {
  const offer = await requireOffer(db, input.offerId);
  if (offer.status !== OFFER_STATUS.active) throw new ApiError(409, OFFER_MSG.notOpen);
  if (Number(offer.expiry) <= nowSeconds(now)) throw new ApiError(409, OFFER_MSG.expired);
  const item = await requireItem(db, input.nftType, input.tokenId);
  if (!sameAddress(item.owner_address, seller)) throw new ApiError(403, MSG.notOwner);
  if (sameAddress(offer.buyer_address, seller)) throw new ApiError(400, MSG.ownItem);
  const covered =
    offer.item_id === null
      ? item.nft_type === offer.nft_type && (await covers(db, offer, queryOf(offer), item))
      : offer.item_id === item.id;
  if (!covered) throw new ApiError(409, OFFER_MSG.notCovered);
  if (!(await isPayable(db, offer))) throw new ApiError(409, OFFER_MSG.unpayable);
  return { offer, item, price: readWei(offer.price), currency: offer.currency as Currency };
}

/**
 * Accepts a game-venue offer: a ledger sale of an in-game item. The offer is taken first and conditionally (of
 * concurrent accepts of one offer, one moves it), then settleSale moves the item conditionally (of accepts of several
 * offers on one item, one moves it) and the money. The item's listing, if any, closes: it is sold.
 */
export async function acceptGameOffer(db: Sql, seller: string, input: AcceptInput, order: SignedFields, now: number) {
  const { offer, item, price, currency } = await requireAcceptable(db, seller, input, now);
  if (offer.venue !== OFFER_VENUE.game) throw new ApiError(409, OFFER_MSG.onChain);
  if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
  await spendNonce(db, seller, order.nonce, "offerAccept", now);
  const taken = await db.run(
    `update market_offers set status = ?, closed_at = ?, seller_address = ?, accepted_item_id = ?, accept_signature = ?
     where id = ? and status = 0`,
    [OFFER_STATUS.accepted, now, seller, item.id, order.signature, offer.id],
  );
  if (taken.changes !== 1) throw new ApiError(409, OFFER_MSG.notOpen);
  const listing = await activeListing(db, item.id);
  if (listing) {
    // A chain listing stays fillable on chain whatever the ledger says: the item must leave it there first.
    if (listing.venue === LISTING_VENUE.chain) throw new ApiError(409, MSG.notInGame);
    await closeListing(db, item, listing, now, order.signature);
  }
  const buyer = offer.buyer_address;
  const listingId = await insertOfferSale(db, item, { seller, buyer, price, currency, at: now, venue: LISTING_VENUE.game });
  const activityId = await settleSale(db, { item, listingId, seller, buyer, price, currency, now });
  return { offer: { ...offer, status: OFFER_STATUS.accepted }, item, price, currency, activityId };
}
