/** What a market view can filter and sort by, per NFT type: the fields the market form offers. */
import type { HistoryPeriod } from "~core/api/market";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from "~core/constants";
import { CURRENCIES, type Currency } from "~core/money";
import { ITEM_ATTRIBUTE_KEYS, ITEM_ATTRIBUTES, LEVEL_MAX, LEVEL_MIN, NFT_TYPE, type ItemAttributeKey, type NftTypeCode } from "~core/nft";
import type { Options } from "./shared";

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface ListSpec {
  label: string;
  options: Options;
  /** The NFT types that carry this attribute. A single type is implied by the filter when none is chosen. */
  types: readonly NftTypeCode[];
}

/** The URL key of an attribute's filter, where it is not the attribute's own name (canonical URLs keep these). */
const URL_KEYS = { pseType: "pse", egseType: "egse", equipmentCode: "equipment" } as const;
type UrlKey<K extends ItemAttributeKey> = K extends keyof typeof URL_KEYS ? (typeof URL_KEYS)[K] : K;
export type ListKey = UrlKey<ItemAttributeKey>;

/**
 * Multi-value enumeration filters, one per enumerated attribute (core/nft.ts), in canonical order. `pse`/`egse`
 * become the query's `type` (product §3).
 */
export const LIST_FILTERS = Object.fromEntries(
  ITEM_ATTRIBUTE_KEYS.map((key): [ListKey, ListSpec] => {
    const { label, names, types } = ITEM_ATTRIBUTES[key];
    return [(URL_KEYS as Partial<Record<ItemAttributeKey, ListKey>>)[key] ?? (key as ListKey), { label, options: names, types }];
  }),
) as Record<ListKey, ListSpec>;
export const LIST_KEYS = Object.keys(LIST_FILTERS) as ListKey[];

export interface RangeSpec {
  label: string;
  min: number;
  max: number;
  types: readonly NftTypeCode[];
}

/** Whole-number ranges, in canonical order; the stats are the spaceship attributes of product §3. */
export const RANGE_FILTERS = {
  level: { label: "Level", min: LEVEL_MIN, max: LEVEL_MAX, types: [0, 1, 2, 3, 4, 7] },
  endurance: { label: "Endurance", min: 0, max: 1_000_000, types: [4] },
  agility: { label: "Agility", min: 0, max: 1_000_000, types: [4] },
  pisonic: { label: "Pisonic", min: 0, max: 1_000_000, types: [4] },
  strength: { label: "Strength", min: 0, max: 1_000_000, types: [4] },
  crit: { label: "Crit", min: 0, max: 1_000_000, types: [4] },
  spirit: { label: "Spirit", min: 0, max: 1_000_000, types: [4] },
  armor: { label: "Armor", min: 0, max: 1_000_000, types: [4] },
  total: { label: "Total", min: 0, max: 7_000_000, types: [4] },
} as const satisfies Record<string, RangeSpec>;
export type RangeKey = keyof typeof RANGE_FILTERS;
export const RANGE_KEYS = Object.keys(RANGE_FILTERS) as RangeKey[];

export const SORT_KEYS = ["listed", "price", "views", "favorites", "total"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = "asc" | "desc";
export type SortOption = `${SortKey}-${SortOrder}`;

/** The price sort's rule, as the market API applies it (backend/market/query.ts), in words for the sort control. */
const [firstGroup, ...laterGroups] = [...CURRENCIES].sort();
export const PRICE_SORT_NOTE = `Price order never compares different tokens: ${firstGroup} listings come first, then ${laterGroups.slice(0, -1).join(", ")} and ${laterGroups.at(-1)}, each sorted by price. Choose a currency to see one only.`;

/** Sort choices in the order the select shows them. `total` only means something for spaceships. */
export const SORT_OPTIONS: readonly { value: SortOption; label: string }[] = [
  { value: "listed-desc", label: "Recently listed" },
  { value: "listed-asc", label: "Oldest listings" },
  { value: "price-asc", label: "Price: low to high" },
  { value: "price-desc", label: "Price: high to low" },
  { value: "views-desc", label: "Most viewed" },
  { value: "views-asc", label: "Least viewed" },
  { value: "favorites-desc", label: "Most favorited" },
  { value: "favorites-asc", label: "Least favorited" },
  { value: "total-desc", label: "Total attributes: high to low" },
  { value: "total-asc", label: "Total attributes: low to high" },
];
export const DEFAULT_SORT: SortOption = "listed-desc";

/**
 * Where a listing trades (docs/api/market.md `venue`): in the game's ledger or on chain through the trading
 * contract. "all" (both) is the default and never written.
 */
export const VENUES = ["game", "chain"] as const;
export type Venue = (typeof VENUES)[number];
export const VENUE_OPTIONS: readonly { value: Venue | "all"; label: string }[] = [
  { value: "all", label: "Game and chain" },
  { value: "game", label: "In the game" },
  { value: "chain", label: "On chain" },
];

export interface IntRange {
  min?: number;
  max?: number;
}
export interface WeiRange {
  min?: bigint;
  max?: bigint;
}

/** A market view. Lists are sorted, deduplicated and non-empty; ranges have a bound and min ≤ max. */
export interface MarketFilter {
  nftType?: NftTypeCode;
  lists: Partial<Record<ListKey, number[]>>;
  ranges: Partial<Record<RangeKey, IntRange>>;
  currency?: Currency;
  /** Wei, of `currency` when one is chosen. */
  price?: WeiRange;
  /** Listings of one venue only; both when absent. */
  venue?: Venue;
  /** The price history's period (issue 30); the default (30 days) when absent. */
  period?: Exclude<HistoryPeriod, "30d">;
  sort: SortOption;
  pageSize: number;
  page: number;
}

export function defaultMarketFilter(): MarketFilter {
  return { lists: {}, ranges: {}, sort: DEFAULT_SORT, pageSize: DEFAULT_PAGE_SIZE, page: DEFAULT_PAGE };
}

/** Does a filter that applies to `types` hold when the view shows `nftType`? */
export function applies(types: readonly NftTypeCode[], nftType: NftTypeCode | undefined) {
  return nftType === undefined ? types.length > 1 : types.includes(nftType);
}

/** The filters that make sense for a type (or for all types): what the form offers. */
export function listKeysFor(nftType: NftTypeCode | undefined): ListKey[] {
  return LIST_KEYS.filter((key) => applies(LIST_FILTERS[key].types, nftType));
}
export function rangeKeysFor(nftType: NftTypeCode | undefined): RangeKey[] {
  return RANGE_KEYS.filter((key) => applies(RANGE_FILTERS[key].types, nftType));
}
export function sortOptionsFor(nftType: NftTypeCode | undefined) {
  return SORT_OPTIONS.filter((option) => nftType === NFT_TYPE.spaceship || !option.value.startsWith("total-"));
}
