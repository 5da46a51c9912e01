/**
 * Offers (issue 30, decision 0023): a buyer's signed Offer order (core/orders.ts) for one item, or for any item of a
 * market filter (a collection offer). Nothing is held aside: the buyer's game balance is checked when the offer is
 * made and again when it is accepted, and an offer it no longer covers is shown as such and refused. Accepting an
 * offer on a game item is a ledger sale (trades/trades.ts settleSale: the buy's fees, activity and page generation); an
 * offer's `venue` says which way it is accepted, so a chain offer's acceptance goes through the Trading contract.
 * Every write is conditional on the offer still being open (status 0): of concurrent accepts, exactly one wins.
 */
import { getAddress } from "viem";
import { sameAddress } from "~core/address";
import { MAX_OPEN_OFFERS, MAX_OPEN_OFFERS_PER_ITEM, OFFERS_PAGE_SIZE } from "~core/constants";
import type { Page } from "~core/api/market";
import { OFFER_STATUSES, OFFER_VENUES, type OfferRecord, type ReceivedOffer } from "~core/api/offers";
import type { Currency } from "~core/money";
import { LISTING_DURATIONS } from "~core/orders";
import { ApiError } from "../../http";
import type { Sql } from "../shared/db";
import { type ItemRow, MSG, activeListing, insertOfferSale, requireItem } from "../shared/items";
import { balanceOf } from "../shared/ledger";
import { offerFilterText } from "~core/offer-filter";
import { LIST_FILTERS, type ListingQuery, listingQuerySchema, normalizeQuery } from "../shared/listing-schemas";
import { padWei, readWei } from "../shared/money";
import { bumpOrderCounter, lockOrderCounter, spendNonce, closeListing, settleSale, type SignedFields } from "../trades";
import { parseMarketInput } from "../shared/params";
import { itemsMatching, isoTime } from "../listings";
import { LISTING_VENUE, LOCATION } from "../shared/tables";

export const OFFER_STATUS = { active: 0, accepted: 1, cancelled: 2 } as const;
export const OFFER_VENUE = { game: 0, chain: 1 } as const;
export const OFFER_COUNTERS = "market_offer_counters" as const;

/** The longest an offer may run: the longest listing, and a few minutes for clocks. */
const MAX_OFFER_SECONDS = Math.max(...LISTING_DURATIONS.map((d) => d.days)) * 86_400 + 5 * 60;
/** How many open collection offers of one type an item or a holder is matched against. */
const COLLECTION_SCAN = 200;
/** How many of a holder's items one collection offer shows (each with its own accept). */
const MATCHES_PER_OFFER = 3;

export const OFFER_MSG = {
  unpayable: "This offer can no longer be paid: the buyer’s game balance is below its price.",
  noFunds: (currency: string) => `You do not have enough ${currency} in the game for this offer.`,
  notOpen: "This offer is no longer open.",
  expired: "This offer has expired.",
  tooLong: "expiry: an offer may run at most 30 days",
  notBuyer: "Only the buyer can cancel this offer.",
  ownItem: "You cannot make an offer on your own item.",
  notCovered: "This offer is not for this item.",
  counterMoved: "Your offers have changed since you signed. Please sign again.",
  onChain: "This offer is accepted on chain, through the trading contract.",
  filterKeys: "filter: a collection offer covers the items’ attributes only (no price, currency, venue, sort, page or wallet)",
  filterType: "filter: expected the same nftType as the offer",
  notFound: "Offer not found",
  tooManyOnItem: `You already have ${MAX_OPEN_OFFERS_PER_ITEM} open offers on this item. Cancel one to make another.`,
  tooManyOnFilter: `You already have ${MAX_OPEN_OFFERS_PER_ITEM} open offers on these items. Cancel one to make another.`,
  tooMany: `You already have ${MAX_OPEN_OFFERS} open offers. Cancel one to make another.`,
  overHoldings: (currency: string) =>
    `Your open offers in ${currency} would come to more than your game balance of ${currency}. Cancel one or offer less.`,
} as const;

export interface OfferRow {
  id: number;
  venue: number;
  buyer_address: string;
  nft_type: number;
  item_id: number | null;
  token_id: string | null;
  filter: string;
  label: string;
  price: string;
  currency: string;
  counter: string;
  nonce: string;
  expiry: number;
  signature: string;
  status: number;
  created_at: number;
  closed_at: number | null;
  seller_address: string | null;
  accepted_item_id: number | null;
}

const nowSeconds = (now: number) => Math.floor(now / 1000);

/** Listing-query keys that are about a listing or a page, not about an item: never part of a collection filter. */
const NOT_ITEM_KEYS = ["pageNumber", "pageSize", "address", "currency", "location", "venue", "sort", "order"];

/**
 * A collection offer's filter: the market API's listing query (docs/api/market.md), item attributes only, parsed by
 * the listing schema and written back in one canonical form (core/offer-filter.ts), so two spellings
 * of one filter are one offer's terms and one signature.
 */
export function canonicalOfferFilter(text: string, nftType: number): { filter: string; query: ListingQuery } {
  const raw: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) raw[key] = key in raw ? `${raw[key]},${value}` : value;
  const input = normalizeQuery(raw) as Record<string, unknown> & { min?: object; max?: object };
  const priced = [input.min, input.max].some((range) => range && typeof range === "object" && "price" in range);
  if (priced || NOT_ITEM_KEYS.some((key) => key in input)) throw new ApiError(400, OFFER_MSG.filterKeys);
  let query: ListingQuery;
  try {
    query = parseMarketInput(listingQuerySchema, input);
  } catch (error) {
    throw error instanceof ApiError ? new ApiError(400, `filter: ${error.message}`) : error;
  }
  if (query.nftType !== nftType) throw new ApiError(400, OFFER_MSG.filterType);
  const lists = Object.fromEntries(Object.keys(LIST_FILTERS).map((key) => [key, query[key as keyof typeof LIST_FILTERS]]));
  const filter = offerFilterText({ nftType, ...lists, min: query.min, max: query.max });
  return { filter, query };
}

/** The filter of a stored collection offer, as its query (it was canonical when stored). */
const queryOf = (offer: OfferRow) => canonicalOfferFilter(offer.filter, offer.nft_type).query;

async function isPayable(db: Sql, offer: OfferRow): Promise<boolean> {
  return (await balanceOf(db, offer.buyer_address, offer.currency as Currency)) >= readWei(offer.price);
}

/** A game balance reader that reads each buyer's balance of a currency once (a page of offers by few buyers). */
function balances(db: Sql) {
  const read = new Map<string, Promise<bigint>>();
  return (offer: OfferRow) => {
    const key = `${offer.buyer_address.toLowerCase()}:${offer.currency}`;
    let balance = read.get(key);
    if (!balance) read.set(key, (balance = balanceOf(db, offer.buyer_address, offer.currency as Currency)));
    return balance;
  };
}

export async function toOfferRecord(db: Sql, offer: OfferRow, balance = balances(db)): Promise<OfferRecord> {
  return {
    id: String(offer.id),
    venue: OFFER_VENUES[offer.venue] ?? "game",
    kind: offer.item_id === null ? "collection" : "item",
    buyerAddress: offer.buyer_address,
    nftType: offer.nft_type,
    tokenId: offer.token_id,
    filter: offer.filter,
    label: offer.label,
    price: readWei(offer.price).toString(),
    currency: offer.currency,
    expiry: Number(offer.expiry),
    status: OFFER_STATUSES[offer.status] ?? "cancelled",
    createdAt: isoTime(Number(offer.created_at)),
    payable: offer.status === OFFER_STATUS.active && (await balance(offer)) >= readWei(offer.price),
  };
}

async function records(db: Sql, offers: OfferRow[]): Promise<OfferRecord[]> {
  const balance = balances(db);
  return await Promise.all(offers.map((offer) => toOfferRecord(db, offer, balance)));
}

/** Which page of a list of offers to serve (issue 43): OFFERS_PAGE_SIZE a page unless asked, best first. */
export interface OfferPaging {
  pageNumber?: number;
  pageSize?: number;
}

/** One page of `all`, already in order; only the page's entries are made into records. */
async function pageOf<T, R>(all: T[], paging: OfferPaging, toRecords: (page: T[]) => Promise<R[]>, capped = false): Promise<Page<R>> {
  const pageNumber = paging.pageNumber ?? 1;
  const pageSize = paging.pageSize ?? OFFERS_PAGE_SIZE;
  const slice = all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
  return { records: await toRecords(slice), total: all.length, totalCapped: capped, pageNumber, pageSize };
}

/** Highest price first within a currency (prices compare only within one). */
const byPrice = (a: OfferRow, b: OfferRow) => a.currency.localeCompare(b.currency) || b.price.localeCompare(a.price) || a.id - b.id;

/** Open collection offers of a type, newest first, each with its filter parsed. */
async function openCollectionOffers(db: Sql, nftType: number, now: number) {
  const offers = await db.all<OfferRow>(
    `select * from market_offers where status = 0 and item_id is null and nft_type = ? and expiry > ? order by id desc limit ?`,
    [nftType, nowSeconds(now), COLLECTION_SCAN],
  );
  return offers.map((offer) => ({ offer, query: queryOf(offer) }));
}

/** Where the items an offer can be accepted for are: in the game for a ledger offer, held on chain for a chain offer. */
const locationOf = (offer: OfferRow) => (offer.venue === OFFER_VENUE.chain ? LOCATION.chain : LOCATION.game);

/** Whether a collection offer covers an item: the market's own filter rule (listings/query.ts itemsMatching), where its venue trades. */
async function covers(db: Sql, offer: OfferRow, query: ListingQuery, item: ItemRow): Promise<boolean> {
  return (await itemsMatching(db, query, { itemId: item.id }, 1, locationOf(offer))).length === 1;
}

/**
 * The open offers on an item, its own and the collection offers whose filter it matches, a page at a time, best
 * first; `offerId` keeps only that offer (an accept names one, wherever it stands in the list).
 */
export async function offersForItem(
  db: Sql,
  item: ItemRow,
  now: number,
  paging: OfferPaging & { offerId?: number } = {},
): Promise<Page<OfferRecord>> {
  const own = await db.all<OfferRow>("select * from market_offers where status = 0 and item_id = ? and expiry > ?", [
    item.id,
    nowSeconds(now),
  ]);
  const matching: OfferRow[] = [];
  for (const { offer, query } of await openCollectionOffers(db, item.nft_type, now)) {
    if (await covers(db, offer, query, item)) matching.push(offer);
  }
  const all = [...own, ...matching].filter((offer) => paging.offerId === undefined || Number(offer.id) === paging.offerId);
  return await pageOf(all.sort(byPrice), paging, (page) => records(db, page));
}

/**
 * A buyer's offers, open ones first, then the latest closed ones: every open one (at most MAX_OPEN_OFFERS, so the
 * pages' sum of a currency's open chain offers, chainOfferAllowance, misses none) and 20 more.
 */
export async function offersOfBuyer(db: Sql, buyer: string, now: number): Promise<OfferRecord[]> {
  const offers = await db.all<OfferRow>(
    `select * from market_offers where buyer_address = ? order by case when status = 0 and expiry > ? then 0 else 1 end, id desc limit ?`,
    [buyer, nowSeconds(now), MAX_OPEN_OFFERS + 20],
  );
  return await records(db, offers);
}

/** The most offers on a holder's items read for one page of offersReceived (the total says "at least" beyond it). */
const RECEIVED_SCAN = 1000;

/**
 * The open offers a holder can accept: game offers on their in-game items and chain offers on their chain-held ones,
 * and the collection offers their items match where the offer's venue trades; a page at a time, best first.
 */
export async function offersReceived(db: Sql, owner: string, now: number, paging: OfferPaging = {}): Promise<Page<ReceivedOffer>> {
  const received: { offer: OfferRow; item: Pick<ItemRow, "token_id" | "nft_type" | "name"> }[] = [];
  const own = await db.all<OfferRow & { item_name: string }>(
    `select o.*, i.name as item_name from market_items i join market_offers o on o.item_id = i.id and o.status = 0
     where i.owner_address = ? and ((o.venue = ? and i.location = ?) or (o.venue = ? and i.location = ?)) and o.expiry > ?
     order by o.id desc limit ?`,
    [owner, OFFER_VENUE.game, LOCATION.game, OFFER_VENUE.chain, LOCATION.chain, nowSeconds(now), RECEIVED_SCAN],
  );
  for (const row of own) received.push({ offer: row, item: { name: row.item_name, token_id: row.token_id!, nft_type: row.nft_type } });
  const types = await db.all<{ nft_type: number }>(
    "select distinct nft_type from market_offers where status = 0 and item_id is null and expiry > ?",
    [nowSeconds(now)],
  );
  for (const { nft_type } of types) {
    for (const { offer, query } of await openCollectionOffers(db, nft_type, now)) {
      if (sameAddress(offer.buyer_address, owner)) continue;
      for (const item of await itemsMatching(db, query, { owner }, MATCHES_PER_OFFER, locationOf(offer))) received.push({ offer, item });
    }
  }
  received.sort((a, b) => byPrice(a.offer, b.offer) || a.item.token_id.localeCompare(b.item.token_id));
  return await pageOf(
    received,
    paging,
    async (page) => {
      const balance = balances(db);
      return await Promise.all(
        page.map(async ({ offer, item }) => ({
          offer: await toOfferRecord(db, offer, balance),
          item: { tokenId: item.token_id, nftType: item.nft_type, name: item.name },
        })),
      );
    },
    own.length === RECEIVED_SCAN,
  );
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
