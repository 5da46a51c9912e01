/**
 * The filter codecs of the marketplace views (docs/architecture.md, "Forms"): URLSearchParams ⇄ a typed filter
 * ⇄ the backend query of product §3. Pure, shared by loaders (parsing, canonical redirects, backend queries) and
 * views (links, chips). One module per view. Server code and tests import this index; browser code imports the
 * modules it needs, because the bundler splits by file: through the index every page would download every view.
 *
 * Canonical URLs: keys in one fixed order, defaults left out, lists sorted and deduplicated, ranges written
 * `min,max` with min ≤ max. Values are digits, letters, "." and "," only, so canonical text needs no escaping.
 * Anything invalid is dropped with a notice, never an error.
 */
export {
  MARKET_PATH,
  STATISTICS_PATH,
  STORAGE_PATH,
  RESULT_WINDOW,
  NFT_TYPE_CODES,
  NFT_TYPE_LABELS,
  isCanonical,
  type MarketQuery,
  type Parsed,
} from "./shared";
export {
  PAGE_SIZES,
  LIST_FILTERS,
  RANGE_FILTERS,
  SORT_KEYS,
  SORT_OPTIONS,
  DEFAULT_SORT,
  defaultMarketFilter,
  listKeysFor,
  rangeKeysFor,
  sortOptionsFor,
  type IntRange,
  type ListKey,
  type MarketFilter,
  type RangeKey,
  type SortKey,
  type SortOption,
  type SortOrder,
  type WeiRange,
} from "./market-options";
// These views' modules are public whole.
export * from "./market";
export * from "./chips";
export * from "./statistics";
export * from "./storage";
