/**
 * What the market page shows of its filter, worked out on the server so the page carries no codec: the active
 * filters as chips (one link per value, which removes just that value) and the filter form's values.
 */
import { DEFAULT_PAGE } from "~core/constants";
import { CURRENCIES, formatWei } from "~core/money";
import {
  defaultMarketFilter,
  type IntRange,
  LIST_FILTERS,
  LIST_KEYS,
  listKeysFor,
  type ListKey,
  type ListSpec,
  type MarketFilter,
  PAGE_SIZES,
  PRICE_SORT_NOTE,
  RANGE_FILTERS,
  RANGE_KEYS,
  type RangeKey,
  rangeKeysFor,
  sortOptionsFor,
  type SortOption,
  type Venue,
  VENUE_OPTIONS,
  type WeiRange,
} from "./market-options";
import { marketHref, withType } from "./market";
import type { NftTypeCode } from "~core/nft";
import { MARKET_PATH, NFT_TYPE_LABELS } from "./shared";
import { rangeText } from "./search-label";

export interface Chip {
  label: string;
  /** The canonical market URL without this value (back on page 1). */
  href: string;
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

/** A choice of a select, as the form renders it. */
export interface SelectOption {
  value: string;
  label: string;
}

/** One multi-value filter's checkboxes: [code, name, checked]. */
export interface ListInput {
  key: ListKey;
  label: string;
  options: [code: number, name: string, checked: boolean][];
}

/** A range filter's two inputs; `min`/`max` bound a whole-number range (the price is a decimal text instead). */
export interface RangeInput {
  key: string;
  label: string;
  values: [string, string];
  min?: number;
  max?: number;
}

/**
 * The filter form as the view renders it (features/market/filter-form.tsx): its values and every label and option the
 * type offers, so the page's bundle carries no option tables (the market route's JS budget is spent).
 */
export interface MarketFormValues {
  nftType?: NftTypeCode;
  sort: SortOption;
  sortOptions: SelectOption[];
  sortNote: string;
  pageSize: number;
  pageSizes: readonly number[];
  lists: ListInput[];
  level?: RangeInput;
  /** The spaceship stats, in a group that starts open when one is set. */
  stats: RangeInput[];
  statsSet: boolean;
  currency: string;
  currencies: readonly string[];
  price: RangeInput;
  venue: Venue | "all";
  venueOptions: readonly SelectOption[];
  /** The same type with every other filter cleared. */
  resetHref: string;
  /** The price history's period, carried through the form (a hidden input) when it is not the default. */
  period?: string;
}

function rangeInput(key: RangeKey, filter: MarketFilter): RangeInput {
  const { label, min, max } = RANGE_FILTERS[key];
  return { key, label, min, max, values: rangeInputValues(filter.ranges[key]) };
}

export function marketFormValues(filter: MarketFilter): MarketFormValues {
  const ranges = rangeKeysFor(filter.nftType);
  const stats = ranges.filter((key) => key !== "level");
  return {
    nftType: filter.nftType,
    sort: filter.sort,
    sortOptions: sortOptionsFor(filter.nftType),
    sortNote: PRICE_SORT_NOTE,
    pageSize: filter.pageSize,
    pageSizes: PAGE_SIZES,
    lists: listKeysFor(filter.nftType).map((key) => {
      const checked = new Set(filter.lists[key] ?? []);
      const { label, options } = LIST_FILTERS[key];
      return {
        key,
        label,
        options: Object.entries(options).map(([code, name]): ListInput["options"][number] => [
          Number(code),
          name,
          checked.has(Number(code)),
        ]),
      };
    }),
    level: ranges.includes("level") ? rangeInput("level", filter) : undefined,
    stats: stats.map((key) => rangeInput(key, filter)),
    statsSet: stats.some((key) => filter.ranges[key]),
    currency: filter.currency ?? "",
    currencies: CURRENCIES,
    price: { key: "price", label: `Price${filter.currency ? ` in ${filter.currency}` : ""}`, values: rangeInputValues(filter.price, true) },
    venue: filter.venue ?? "all",
    venueOptions: VENUE_OPTIONS,
    resetHref: marketHref({ ...defaultMarketFilter(), nftType: filter.nftType }),
    period: filter.period,
  };
}

/** The form's text for a range input: each side on its own. */
function rangeInputValues(range: IntRange | WeiRange | undefined, isWei = false): [string, string] {
  const text = (value: number | bigint | undefined) => (value === undefined ? "" : isWei ? formatWei(value as bigint) : String(value));
  return [text(range?.min), text(range?.max)];
}
