/**
 * A collection offer's terms from a market view (issue 30): the view's filter without what is about a listing or a
 * page (price, currency, venue, sort, page size), as the market API's listing query in the canonical text the Offer
 * order signs (core/offer-filter.ts), and in the words every search is labelled with (search-label.ts). Only a view of one
 * type can be offered on.
 */
import { marketHref, parseMarketFilter, toMarketQuery } from "~/features/market/filters/market";
import { defaultMarketFilter, type MarketFilter } from "~/features/market/filters/market-options";
import { searchLabel } from "~/features/market/filters/search-label";
import { offerFilterText } from "~core/offer-filter";
import type { NftTypeCode } from "~core/nft";
import { OFFERS_PATH } from "./offer-views";

export interface CollectionTerms {
  nftType: NftTypeCode;
  filter: string;
  label: string;
  /** The market view of exactly these items. */
  viewHref: string;
  /** The offers page with this view's collection offer form. */
  offerHref: string;
}

/** The items' part of a market filter: its type, lists and ranges. */
function itemPart(filter: MarketFilter): MarketFilter {
  return { ...defaultMarketFilter(), nftType: filter.nftType, lists: filter.lists, ranges: filter.ranges };
}

export function collectionTerms(filter: MarketFilter): CollectionTerms | null {
  if (filter.nftType === undefined) return null;
  const items = itemPart(filter);
  // toMarketQuery adds the page, size and sort: not terms of an offer.
  const { pageNumber: _page, pageSize: _size, sort: _sort, order: _order, ...query } = toMarketQuery(items);
  return {
    nftType: filter.nftType,
    filter: offerFilterText(query),
    label: searchLabel(items),
    viewHref: marketHref(items),
    offerHref: marketHref(items, OFFERS_PATH),
  };
}

/** The terms of the market view a URL's query names (the offers page is opened with the view's own query). */
export function collectionTermsOf(search: URLSearchParams): CollectionTerms | null {
  return collectionTerms(parseMarketFilter(search).filter);
}
