/**
 * What an offer is (issue 30, decision 0023): its row, statuses and venues, the words it is refused in, a collection
 * offer's filter in its one canonical form, and the rule by which an offer covers an item. offers.ts (making,
 * cancelling, accepting), offer-lists.ts (the pages of offers) and chain-offers.ts stand on it.
 */
import { ApiError } from "../../http";
import { MAX_OPEN_OFFERS, MAX_OPEN_OFFERS_PER_ITEM } from "~core/constants";
import { offerFilterText } from "~core/offer-filter";
import type { Sql } from "../shared/db";
import type { ItemRow } from "../shared/items";
import { LIST_FILTERS, type ListingQuery, listingQuerySchema, normalizeQuery } from "../shared/listing-schemas";
import { parseMarketInput } from "../shared/params";
import { itemsMatching } from "../listings";
import { LOCATION } from "../shared/tables";

export const OFFER_STATUS = { active: 0, accepted: 1, cancelled: 2 } as const;
export const OFFER_VENUE = { game: 0, chain: 1 } as const;
export const OFFER_COUNTERS = "market_offer_counters" as const;

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

export const nowSeconds = (now: number) => Math.floor(now / 1000);

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
export const queryOf = (offer: OfferRow) => canonicalOfferFilter(offer.filter, offer.nft_type).query;

/** Where the items an offer can be accepted for are: in the game for a ledger offer, held on chain for a chain offer. */
export const locationOf = (offer: OfferRow) => (offer.venue === OFFER_VENUE.chain ? LOCATION.chain : LOCATION.game);

/** Whether a collection offer covers an item: the market's own filter rule (listings/query.ts itemsMatching), where its venue trades. */
export async function covers(db: Sql, offer: OfferRow, query: ListingQuery, item: ItemRow): Promise<boolean> {
  return (await itemsMatching(db, query, { itemId: item.id }, 1, locationOf(offer))).length === 1;
}
