/**
 * The market pages' paths and the storage tabs: what pages need in the browser, in a module that imports nothing, so
 * a page that links to a view does not ship the filter codecs and type tables behind filters/shared.ts.
 */
export const MARKET_PATH = "/marketplace/market";
export const STATISTICS_PATH = "/marketplace/statistics";
export const STORAGE_PATH = "/marketplace/storage";

/** The market API answers at most this many records deep (pageNumber × pageSize). */
export const RESULT_WINDOW = 10_000;

export const STORAGE_TABS = { items: "My items", selling: "Selling", favorites: "Favorites" } as const;
export type StorageTab = keyof typeof STORAGE_TABS;
