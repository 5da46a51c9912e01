/**
 * The market filter as data: one list of terms that listings/query.ts renders into SQL and that watched searches
 * (watches/watches.ts) test a new listing against in memory. One rule, two readers, so an alert fires exactly for the
 * listings the watched view would show (tests/backend/market-watch-matcher.test.ts checks it on random filters).
 */
import { LISTING_VENUES } from "~core/api/market";
import { ITEM_ATTRIBUTE_KEYS, LEVEL_MAX, LEVEL_MIN, NFT_TYPE } from "~core/nft";
import { GRADE_COLUMNS } from "./catalog";
import { filterOf, type ListFilter, type ListingQuery, RANGE_KEYS } from "./listing-schemas";
import { padWei } from "./money";
import { ATTRIBUTE_COLUMNS } from "./tables";

/** What a filter reads of a query: everything but paging and sort. */
export type FilterQuery = Omit<ListingQuery, "pageNumber" | "pageSize" | "sort" | "order" | "address" | "location">;

/** A column's value in a list, or at a bound. `listing`: a column only the listing has (price, currency, venue). */
export type FilterTerm =
  | { column: string; op: "in"; values: readonly (number | string)[]; listing?: true }
  | { column: string; op: ">=" | "<="; value: number | string; listing?: true };

/** Query parameter → column (identical on market_items and market_listings); `type` is handled apart. */
const FILTER_COLUMNS = Object.fromEntries(
  ITEM_ATTRIBUTE_KEYS.filter((key) => filterOf(key) !== "type").map((key) => [key, ATTRIBUTE_COLUMNS[key]]),
) as Record<Exclude<ListFilter, "type">, string>;

/** Above this many levels a range stays a range (today levels run LEVEL_MIN..LEVEL_MAX, 1..10). */
const LEVEL_LIST_MAX = 16;

/**
 * A level range as its list of levels (an open end runs to LEVEL_MIN or LEVEL_MAX), so the facet indexes
 * (…, grade, level, camp, currency) seek each cell instead of scanning the range and testing camp and currency
 * on every entry: a four-filter count over 100 k listings went from 2.5 to 0.8 ms.
 */
function levelList(min: number | undefined, max: number | undefined): number[] | undefined {
  if (min === undefined && max === undefined) return undefined;
  const from = min ?? LEVEL_MIN;
  const to = max ?? LEVEL_MAX;
  if (to < from || to - from >= LEVEL_LIST_MAX) return undefined;
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * The filter's terms. With `useGrade` (listings of a named type) the filter on the type's grade attribute reads
 * `grade`, so that the grade-led indexes answer it.
 */
export function filterTerms(q: FilterQuery, useGrade: boolean): FilterTerm[] {
  const terms: FilterTerm[] = [];
  const gradeFilter = useGrade && q.nftType !== undefined ? GRADE_COLUMNS[q.nftType].filter : undefined;
  if (q.nftType !== undefined) terms.push({ column: "nft_type", op: "in", values: [q.nftType] });
  for (const [name, column] of Object.entries(FILTER_COLUMNS) as [keyof typeof FILTER_COLUMNS, string][]) {
    const values = q[name];
    if (values?.length) terms.push({ column: name === gradeFilter ? "grade" : column, op: "in", values });
  }
  if (q.type?.length) {
    const column = gradeFilter === "type" ? "grade" : q.nftType === NFT_TYPE.egse ? "egse_type" : "pse_type";
    terms.push({ column, op: "in", values: q.type });
  }
  for (const key of RANGE_KEYS) {
    const levels = key === "level" ? levelList(q.min.level, q.max.level) : undefined;
    if (levels) {
      terms.push({ column: "level", op: "in", values: levels });
      continue;
    }
    for (const [bound, op] of [
      [q.min[key], ">="],
      [q.max[key], "<="],
    ] as const) {
      if (bound === undefined) continue;
      if (key === "price") terms.push({ column: "price", op, value: padWei(bound as bigint), listing: true });
      else terms.push({ column: key, op, value: bound as number });
    }
  }
  if (q.venue) terms.push({ column: "venue", op: "in", values: [LISTING_VENUES.indexOf(q.venue)], listing: true });
  if (q.currency) terms.push({ column: "currency", op: "in", values: [q.currency], listing: true });
  return terms;
}

/**
 * Whether a market_listings row passes every term, as SQL decides it: a null column passes no term, numbers
 * compare as numbers and wei (zero-padded text) as text, which is what `collate "C"` and SQLite do.
 */
export function matchesTerms(terms: readonly FilterTerm[], row: Readonly<Record<string, unknown>>): boolean {
  for (const term of terms) {
    const value = row[term.column];
    if (value === null || value === undefined) return false;
    if (term.op === "in") {
      if (!term.values.includes(value as number | string)) return false;
    } else if (typeof value !== typeof term.value) {
      return false;
    } else if (term.op === ">=" ? value < term.value : value > term.value) {
      return false;
    }
  }
  return true;
}
