/** The storage view's codec: URL ⇄ `StorageFilter` (tab, type, page) ⇄ the wallet's listing query. */
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from "~core/constants";
import type { NftTypeCode } from "~core/nft";
import { FilterParams, type Parsed, RESULT_WINDOW, STORAGE_PATH, intParser, shown } from "./shared";
import type { MarketQuery } from "~/services/market.server";

import { STORAGE_TABS, type StorageTab } from "./paths";

export { STORAGE_TABS, type StorageTab };
export const STORAGE_TAB_KEYS = Object.keys(STORAGE_TABS) as StorageTab[];

export interface StorageFilter {
  tab: StorageTab;
  nftType?: NftTypeCode;
  page: number;
  /** The page of "Offers on your items" (issue 43); absent: the first. */
  offersPage?: number;
}

export function parseStorageFilter(search: URLSearchParams): Parsed<StorageFilter> {
  const params = new FilterParams(search);
  const filter: StorageFilter = { tab: "items", page: DEFAULT_PAGE };
  const tab = params.one("tab", "Tab");
  if (tab !== undefined) {
    if (tab in STORAGE_TABS) filter.tab = tab as StorageTab;
    else params.notices.add(`Tab: ${shown(tab)} is not one of ${Object.keys(STORAGE_TABS).join(", ")}, so your items are shown.`);
  }
  const nftType = params.nftType();
  if (nftType !== undefined) filter.nftType = nftType;
  const page = params.page(RESULT_WINDOW / DEFAULT_PAGE_SIZE);
  if (page !== undefined) filter.page = page;
  const offersPage = params.one("offersPage", "Offers page");
  if (offersPage !== undefined) {
    const n = intParser(1, 500)(offersPage);
    if (n === undefined) params.notices.add(`Offers page: ${shown(offersPage)} is not a page number, so the first page is shown.`);
    else if (n > 1) filter.offersPage = n;
  }
  params.rejectRest();
  return { filter, notices: params.notices.list };
}

export function serializeStorageFilter(filter: StorageFilter): string {
  const parts: string[] = [];
  if (filter.tab !== "items") parts.push(`tab=${filter.tab}`);
  if (filter.nftType !== undefined) parts.push(`nftType=${filter.nftType}`);
  if (filter.page !== DEFAULT_PAGE) parts.push(`page=${filter.page}`);
  if (filter.offersPage !== undefined && filter.offersPage > 1) parts.push(`offersPage=${filter.offersPage}`);
  return parts.join("&");
}

export function storageHref(filter: StorageFilter): string {
  const search = serializeStorageFilter(filter);
  return search ? `${STORAGE_PATH}?${search}` : STORAGE_PATH;
}

/** The listing query of a storage tab for the wallet. */
export function toStorageQuery(filter: StorageFilter, address: string): MarketQuery {
  const query: MarketQuery = { pageNumber: filter.page, pageSize: DEFAULT_PAGE_SIZE, address };
  if (filter.nftType !== undefined) query.nftType = filter.nftType;
  return query;
}
