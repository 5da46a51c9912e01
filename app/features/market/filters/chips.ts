/**
 * What the market page shows of its filter, worked out on the server so the page carries no codec: the active
 * filters as chips (one link per value, which removes just that value) and the filter form's values.
 */
import { DEFAULT_PAGE } from "~core/constants";
import { formatWei } from "~core/money";
import {
  defaultMarketFilter,
  type IntRange,
  LIST_FILTERS,
  LIST_KEYS,
  type ListKey,
  type ListSpec,
  type MarketFilter,
  RANGE_FILTERS,
  RANGE_KEYS,
  type RangeKey,
  type SortOption,
  type Venue,
  VENUE_OPTIONS,
  type WeiRange,
} from "./market-options";
import { marketHref, withType } from "./market";
import type { NftTypeCode } from "~core/nft";
import { MARKET_PATH, NFT_TYPE_LABELS } from "./shared";

export interface Chip {
  label: string;
  /** The canonical market URL without this value (back on page 1). */
  href: string;
}

function rangeText<T extends number | bigint>(range: { min?: T; max?: T }, format: (value: T) => string = String): string {
  if (range.min !== undefined && range.max !== undefined)
    return range.min === range.max ? format(range.min) : `${format(range.min)}–${format(range.max)}`;
  return range.min !== undefined ? `≥ ${format(range.min)}` : `≤ ${format(range.max!)}`;
}

export function filterChips(filter: MarketFilter, path = MARKET_PATH): Chip[] {
  const base = { ...filter, page: DEFAULT_PAGE };
  const chips: Chip[] = [];
  if (filter.nftType !== undefined)
    chips.push({ label: `Type: ${NFT_TYPE_LABELS[filter.nftType]}`, href: marketHref(withType(base, undefined), path) });
  for (const key of LIST_KEYS) {
    const spec: ListSpec = LIST_FILTERS[key];
    for (const code of filter.lists[key] ?? []) {
      const rest = filter.lists[key]!.filter((other) => other !== code);
      const lists = { ...base.lists, [key]: rest };
      if (!rest.length) delete lists[key];
      chips.push({ label: `${spec.label}: ${spec.options[code]}`, href: marketHref({ ...base, lists }, path) });
    }
  }
  for (const key of RANGE_KEYS) {
    const range = filter.ranges[key];
    if (!range) continue;
    const ranges = { ...base.ranges };
    delete ranges[key];
    chips.push({ label: `${RANGE_FILTERS[key].label} ${rangeText(range)}`, href: marketHref({ ...base, ranges }, path) });
  }
  if (filter.currency) chips.push({ label: `Currency: ${filter.currency}`, href: marketHref({ ...base, currency: undefined }, path) });
  if (filter.price) {
    chips.push({
      label: `Price ${rangeText(filter.price, (wei) => formatWei(wei, { group: true }))}${filter.currency ? ` ${filter.currency}` : ""}`,
      href: marketHref({ ...base, price: undefined }, path),
    });
  }
  if (filter.venue) {
    const label = VENUE_OPTIONS.find((option) => option.value === filter.venue)!.label;
    chips.push({ label: `Where: ${label}`, href: marketHref({ ...base, venue: undefined }, path) });
  }
  return chips;
}

/** The filter form's inputs as the view renders them (features/market/filter-form.tsx). */
export interface MarketFormValues {
  nftType?: NftTypeCode;
  sort: SortOption;
  pageSize: number;
  lists: Partial<Record<ListKey, number[]>>;
  /** Each range's min and max text, for every range the type offers. */
  ranges: Partial<Record<RangeKey, [string, string]>>;
  /** Some spaceship stat is set, so their group starts open. */
  statsSet: boolean;
  currency: string;
  price: [string, string];
  venue: Venue | "all";
  /** The same type with every other filter cleared. */
  resetHref: string;
}

export function marketFormValues(filter: MarketFilter): MarketFormValues {
  return {
    nftType: filter.nftType,
    sort: filter.sort,
    pageSize: filter.pageSize,
    lists: filter.lists,
    ranges: Object.fromEntries(RANGE_KEYS.map((key) => [key, rangeInputValues(filter.ranges[key])])),
    statsSet: RANGE_KEYS.some((key) => key !== "level" && filter.ranges[key]),
    currency: filter.currency ?? "",
    price: rangeInputValues(filter.price, true),
    venue: filter.venue ?? "all",
    resetHref: marketHref({ ...defaultMarketFilter(), nftType: filter.nftType }),
  };
}

/** The form's text for a range input: each side on its own. */
function rangeInputValues(range: IntRange | WeiRange | undefined, isWei = false): [string, string] {
  const text = (value: number | bigint | undefined) => (value === undefined ? "" : isWei ? formatWei(value as bigint) : String(value));
  return [text(range?.min), text(range?.max)];
}
