/**
 * The filter codec of the marketplace (DESIGN "Filters"): URLSearchParams ⇄ a typed filter ⇄ the market query
 * of SPEC §3. Pure, shared by loaders (parsing, canonical redirects, backend queries) and views (links, chips).
 *
 * Canonical URLs: keys in one fixed order, defaults left out, lists sorted and deduplicated, ranges written
 * `min,max` with min ≤ max. Values are digits, letters, "." and "," only, so canonical text needs no escaping.
 * Anything invalid is dropped with a notice, never an error.
 */
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from "~core/constants";
import { CURRENCIES, type Currency, formatWei, isCurrency, parseTokenAmount } from "~core/money";
import {
  BOX_TYPES,
  CAMPS,
  EGG_TYPES,
  EGSE_TYPES,
  EQUIPMENT_CODES,
  EQUIPMENT_TYPES,
  IDENTITIES,
  LEVEL_MAX,
  LEVEL_MIN,
  MATERIALS,
  NFT_TYPES,
  PROFESSIONS,
  PSE_TYPES,
  RARITIES,
  SPACESHIP_TYPES,
  type NftTypeCode,
  NFT_TYPE,
} from "~core/nft";

export const MARKET_PATH = "/marketplace/market";
export const STATISTICS_PATH = "/marketplace/statistics";
export const STORAGE_PATH = "/marketplace/storage";

/** The market API answers at most this many records deep (pageNumber × pageSize). */
export const RESULT_WINDOW = 10_000;
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export const NFT_TYPE_CODES = Object.keys(NFT_TYPES).map(Number) as NftTypeCode[];

/** What people call each type in the UI. */
export const NFT_TYPE_LABELS: Record<NftTypeCode, string> = {
  0: "Hero cards",
  1: "Halloween items",
  2: "PSE",
  3: "EGSE",
  4: "Spaceships",
  5: "Pet eggs",
  6: "Loot boxes",
  7: "Equipment",
  8: "Materials",
};

type Options = Readonly<Record<number, string>>;

interface ListSpec {
  label: string;
  options: Options;
  /** The NFT types that carry this attribute. A single type is implied by the filter when none is chosen. */
  types: readonly NftTypeCode[];
}

/** Multi-value enumeration filters, in canonical order. `pse`/`egse` become the query's `type` (SPEC §3). */
export const LIST_FILTERS = {
  camp: { label: "Camp", options: CAMPS, types: [0, 4, 5] },
  rarity: { label: "Rarity", options: RARITIES, types: [0, 1] },
  identity: { label: "Identity", options: IDENTITIES, types: [0] },
  profession: { label: "Profession", options: PROFESSIONS, types: [0] },
  material: { label: "Material", options: MATERIALS, types: [8] },
  rank: { label: "Spaceship type", options: SPACESHIP_TYPES, types: [4] },
  pse: { label: "PSE type", options: PSE_TYPES, types: [2] },
  egse: { label: "EGSE type", options: EGSE_TYPES, types: [3] },
  eggType: { label: "Egg type", options: EGG_TYPES, types: [5] },
  equipmentType: { label: "Equipment grade", options: EQUIPMENT_TYPES, types: [7] },
  equipment: { label: "Equipment", options: EQUIPMENT_CODES, types: [7] },
  boxType: { label: "Loot box type", options: BOX_TYPES, types: [6] },
} as const satisfies Record<string, ListSpec>;
export type ListKey = keyof typeof LIST_FILTERS;
const LIST_KEYS = Object.keys(LIST_FILTERS) as ListKey[];

interface RangeSpec {
  label: string;
  min: number;
  max: number;
  types: readonly NftTypeCode[];
}

/** Whole-number ranges, in canonical order; the stats are the spaceship attributes of SPEC §3. */
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
const RANGE_KEYS = Object.keys(RANGE_FILTERS) as RangeKey[];

export const SORT_KEYS = ["listed", "price", "views", "favorites", "total"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = "asc" | "desc";
export type SortOption = `${SortKey}-${SortOrder}`;

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
/** Without an order, price goes cheapest first and everything else most/newest first (as the market API does). */
const DEFAULT_ORDER: Record<SortKey, SortOrder> = { listed: "desc", price: "asc", views: "desc", favorites: "desc", total: "desc" };

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
  sort: SortOption;
  pageSize: number;
  page: number;
}

export interface Parsed<F> {
  filter: F;
  /** Plain-words reasons for every value that was dropped. */
  notices: string[];
}

export function defaultMarketFilter(): MarketFilter {
  return { lists: {}, ranges: {}, sort: DEFAULT_SORT, pageSize: DEFAULT_PAGE_SIZE, page: DEFAULT_PAGE };
}

// ---- parsing helpers ------------------------------------------------------------------------------------

/** Keys a framework may add to a request (Remix data requests); never part of a filter. */
const TRANSPORT_KEYS = new Set(["_data", "_routes", "index"]);
const MAX_NOTICES = 12;

function shown(value: string) {
  const short = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return `“${short}”`;
}

/** Every key's values, trimmed, in arrival order; framework keys left out. */
function collect(params: URLSearchParams): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [key, value] of params) {
    if (TRANSPORT_KEYS.has(key)) continue;
    values.set(key, [...(values.get(key) ?? []), value.trim()]);
  }
  return values;
}

class Notices {
  readonly list: string[] = [];
  add(message: string) {
    if (this.list.length < MAX_NOTICES && !this.list.includes(message)) this.list.push(message);
  }
}

function typesLabel(types: readonly NftTypeCode[]) {
  return types.map((type) => NFT_TYPE_LABELS[type].toLowerCase()).join(", ");
}

/** A code of `options`, given as its number or (leniently) its name. */
function parseCode(part: string, options: Options): number | undefined {
  if (/^\d{1,3}$/.test(part)) return Number(part) in options ? Number(part) : undefined;
  const lower = part.toLowerCase();
  const found = Object.entries(options).find(([, name]) => name.toLowerCase() === lower);
  return found ? Number(found[0]) : undefined;
}

/** Comma lists and repeated keys alike (checkbox groups repeat the key). */
function parseList(values: string[], options: Options, label: string, notices: Notices): number[] | undefined {
  const parts = values.flatMap((value) => value.split(",")).map((part) => part.trim()).filter(Boolean);
  const codes = new Set<number>();
  const bad: string[] = [];
  for (const part of parts) {
    const code = parseCode(part, options);
    if (code === undefined) bad.push(part);
    else codes.add(code);
  }
  if (bad.length) notices.add(`${label}: ${bad.map(shown).join(", ")} ${bad.length === 1 ? "is not a" : "are not"} known ${label.toLowerCase()} value${bad.length === 1 ? "" : "s"}, so ${bad.length === 1 ? "it was" : "they were"} ignored.`);
  return codes.size ? [...codes].sort((a, b) => a - b) : undefined;
}

/**
 * The two sides of a range: `min,max` in one value, or two values of a repeated key (a form's Min and Max
 * inputs), or one number meaning exactly that. Undefined when the shape is wrong.
 */
function rangeSides(values: string[]): [string, string] | undefined {
  if (values.length === 1) {
    const parts = values[0].split(",").map((part) => part.trim());
    if (parts.length === 1) return [parts[0], parts[0]];
    return parts.length === 2 ? [parts[0], parts[1]] : undefined;
  }
  if (values.length === 2 && !values.some((value) => value.includes(","))) return [values[0], values[1]];
  return undefined;
}

/** A range of bounds parsed by `parse`, swapped into order; undefined when empty or invalid (with a notice). */
function parseRange<T extends number | bigint>(
  values: string[],
  parse: (text: string) => T | undefined,
  label: string,
  expected: string,
  notices: Notices,
): { min?: T; max?: T } | undefined {
  if (values.every((value) => value.replace(/,/g, "").trim() === "")) return undefined;
  const sides = rangeSides(values);
  const bounds = sides?.map((side) => (side === "" ? null : parse(side)));
  if (!sides || !bounds || bounds.some((bound) => bound === undefined)) {
    notices.add(`${label}: ${shown(values.join(","))} is not ${expected}, so it was ignored.`);
    return undefined;
  }
  let [low, high] = bounds as (T | null)[];
  if (low !== null && high !== null && low > high) [low, high] = [high, low];
  return { ...(low === null ? {} : { min: low }), ...(high === null ? {} : { max: high }) };
}

function intParser(min: number, max: number) {
  return (text: string) => {
    if (!/^\d{1,9}$/.test(text)) return undefined;
    const n = Number(text);
    return n >= min && n <= max ? n : undefined;
  };
}

function parseNftType(value: string): NftTypeCode | undefined {
  if (/^\d$/.test(value)) return Number(value) in NFT_TYPES ? (Number(value) as NftTypeCode) : undefined;
  const found = NFT_TYPE_CODES.find((code) => NFT_TYPES[code] === value.toLowerCase());
  return found;
}

function parseSort(sort: string | undefined, order: string | undefined): SortOption | undefined {
  const [key, direction] = (sort ?? "listed").toLowerCase().split("-");
  const orderValue = direction ?? order?.toLowerCase();
  if (!(SORT_KEYS as readonly string[]).includes(key)) return undefined;
  if (orderValue !== undefined && orderValue !== "asc" && orderValue !== "desc") return undefined;
  return `${key}-${orderValue ?? DEFAULT_ORDER[key as SortKey]}` as SortOption;
}

/** The one value of a key that takes one; extra values are reported and dropped. */
function single(values: string[] | undefined, label: string, notices: Notices): string | undefined {
  const given = values?.filter(Boolean) ?? [];
  if (given.length > 1 && new Set(given).size > 1) notices.add(`${label}: only one value is allowed; ${shown(given[0])} was used.`);
  return given[0];
}

// ---- the market filter -----------------------------------------------------------------------------------

/** Other spellings accepted on the way in (SPEC §3: camp comes from "faction"); never written. */
const ALIASES: Record<string, string> = { faction: "camp", pageNumber: "page" };

/** Does a filter that applies to `types` hold when the view shows `nftType`? */
function applies(types: readonly NftTypeCode[], nftType: NftTypeCode | undefined) {
  return nftType === undefined ? types.length > 1 : types.includes(nftType);
}

export function parseMarketFilter(params: URLSearchParams): Parsed<MarketFilter> {
  const notices = new Notices();
  const raw = collect(params);
  for (const [alias, key] of Object.entries(ALIASES)) {
    const values = raw.get(alias);
    if (!values) continue;
    raw.set(key, [...(raw.get(key) ?? []), ...values]);
    raw.delete(alias);
  }
  const take = (key: string) => {
    const values = raw.get(key);
    raw.delete(key);
    return values;
  };
  const filter = defaultMarketFilter();

  // An nftType key that is present but empty is the form's "All types": nothing is inferred then.
  const typeValues = take("nftType");
  const typeText = single(typeValues, "Type", notices);
  if (typeText !== undefined) {
    const code = parseNftType(typeText);
    if (code === undefined) notices.add(`Type: ${shown(typeText)} is not an NFT type, so all types are shown.`);
    else filter.nftType = code;
  }
  const typeChosen = typeValues !== undefined;

  for (const key of LIST_KEYS) {
    const values = take(key);
    const spec: ListSpec = LIST_FILTERS[key];
    const list = values && parseList(values, spec.options, spec.label, notices);
    if (list) filter.lists[key] = list;
  }
  // The query's own name for PSE/EGSE types, read against the chosen type.
  const typeAlias = take("type");
  if (typeAlias) {
    const target = filter.nftType === NFT_TYPE.pse ? "pse" : filter.nftType === NFT_TYPE.egse ? "egse" : undefined;
    if (!target) notices.add("“type” names PSE or EGSE types and needs nftType 2 or 3, so it was ignored.");
    else {
      const spec: ListSpec = LIST_FILTERS[target];
      const list = parseList([...(filter.lists[target] ?? []).map(String), ...typeAlias], spec.options, spec.label, notices);
      if (list) filter.lists[target] = list;
    }
  }

  for (const key of RANGE_KEYS) {
    const values = take(key);
    if (!values) continue;
    const spec: RangeSpec = RANGE_FILTERS[key];
    const range = parseRange(values, intParser(spec.min, spec.max), spec.label, `a range of whole numbers from ${spec.min} to ${spec.max}`, notices);
    if (range) filter.ranges[key] = range;
  }

  const currency = single(take("currency"), "Currency", notices);
  if (currency !== undefined) {
    if (isCurrency(currency.toUpperCase())) filter.currency = currency.toUpperCase() as Currency;
    else notices.add(`Currency: ${shown(currency)} is not one of ${CURRENCIES.join(", ")}, so it was ignored.`);
  }
  const price = take("price");
  if (price) {
    const range = parseRange(price, (text) => parseTokenAmount(text), "Price", "a price range such as 0.5,12", notices);
    if (range) filter.price = range;
  }

  const sortText = single(take("sort"), "Sort", notices);
  const orderText = single(take("order"), "Order", notices);
  if (sortText !== undefined || orderText !== undefined) {
    const sort = parseSort(sortText, orderText);
    if (sort) filter.sort = sort;
    else notices.add(`Sort: ${shown([sortText, orderText].filter(Boolean).join(" "))} is not a sort order, so the newest listings come first.`);
  }

  const pageSizeText = single(take("pageSize"), "Page size", notices);
  if (pageSizeText !== undefined) {
    const size = Number(pageSizeText);
    if ((PAGE_SIZES as readonly number[]).includes(size) && /^\d+$/.test(pageSizeText)) filter.pageSize = size;
    else notices.add(`Page size: ${shown(pageSizeText)} is not one of ${PAGE_SIZES.join(", ")}, so ${DEFAULT_PAGE_SIZE} per page are shown.`);
  }
  const pageText = single(take("page"), "Page", notices);
  if (pageText !== undefined) {
    const page = intParser(1, RESULT_WINDOW)(pageText);
    if (page === undefined) notices.add(`Page: ${shown(pageText)} is not a page number, so the first page is shown.`);
    else if (page * filter.pageSize > RESULT_WINDOW) {
      notices.add(`Page ${page}: the market shows the first ${RESULT_WINDOW.toLocaleString("en")} results only; narrow the filters to see further.`);
    } else filter.page = page;
  }

  for (const key of raw.keys()) notices.add(`${shown(key)} is not a filter, so it was ignored.`);

  // SPEC §3 "rank (mapped for spaceships), type (from pse or egse)": an attribute of one type implies that type.
  if (filter.nftType === undefined && !typeChosen) {
    const implied =
      [...LIST_KEYS.filter((key) => filter.lists[key]).map((key) => LIST_FILTERS[key].types), ...RANGE_KEYS.filter((key) => filter.ranges[key]).map((key) => RANGE_FILTERS[key].types)].find(
        (types) => types.length === 1,
      )?.[0] ?? (filter.sort.startsWith("total-") ? 4 : undefined);
    if (implied !== undefined) filter.nftType = implied;
  }
  const where = filter.nftType === undefined ? "all types" : NFT_TYPE_LABELS[filter.nftType].toLowerCase();
  for (const key of LIST_KEYS) {
    const spec: ListSpec = LIST_FILTERS[key];
    if (filter.lists[key] && !applies(spec.types, filter.nftType)) {
      delete filter.lists[key];
      notices.add(`${spec.label} applies to ${typesLabel(spec.types)}, not to ${where}, so it was ignored.`);
    }
  }
  for (const key of RANGE_KEYS) {
    const spec: RangeSpec = RANGE_FILTERS[key];
    if (filter.ranges[key] && !applies(spec.types, filter.nftType)) {
      delete filter.ranges[key];
      notices.add(`${spec.label} applies to ${typesLabel(spec.types)}, not to ${where}, so it was ignored.`);
    }
  }
  if (filter.sort.startsWith("total-") && filter.nftType !== NFT_TYPE.spaceship) {
    filter.sort = DEFAULT_SORT;
    notices.add("Sorting by total attributes applies to spaceships only, so the newest listings come first.");
  }
  return { filter, notices: notices.list };
}

function formatRange<T extends number | bigint>(range: { min?: T; max?: T }, format: (value: T) => string = String): string {
  if (range.min !== undefined && range.min === range.max) return format(range.min);
  return `${range.min === undefined ? "" : format(range.min)},${range.max === undefined ? "" : format(range.max)}`;
}

/** The canonical query string of a filter, without "?". */
export function serializeMarketFilter(filter: MarketFilter): string {
  const parts: string[] = [];
  if (filter.nftType !== undefined) parts.push(`nftType=${filter.nftType}`);
  for (const key of LIST_KEYS) {
    const list = filter.lists[key];
    if (list?.length) parts.push(`${key}=${list.join(",")}`);
  }
  for (const key of RANGE_KEYS) {
    const range = filter.ranges[key];
    if (range && (range.min !== undefined || range.max !== undefined)) parts.push(`${key}=${formatRange(range)}`);
  }
  if (filter.currency) parts.push(`currency=${filter.currency}`);
  if (filter.price && (filter.price.min !== undefined || filter.price.max !== undefined)) {
    parts.push(`price=${formatRange(filter.price, (wei) => formatWei(wei))}`);
  }
  if (filter.sort !== DEFAULT_SORT) parts.push(`sort=${filter.sort}`);
  if (filter.pageSize !== DEFAULT_PAGE_SIZE) parts.push(`pageSize=${filter.pageSize}`);
  if (filter.page !== DEFAULT_PAGE) parts.push(`page=${filter.page}`);
  return parts.join("&");
}

export function marketHref(filter: MarketFilter): string {
  const search = serializeMarketFilter(filter);
  return search ? `${MARKET_PATH}?${search}` : MARKET_PATH;
}

/** The same view on another page. */
export function withPage(filter: MarketFilter, page: number): MarketFilter {
  return { ...filter, page };
}

/** A market view of one type, everything else default: the landing page's entry points. */
export function typeHref(nftType: NftTypeCode): string {
  return marketHref({ ...defaultMarketFilter(), nftType });
}

/**
 * The same view switched to another type (or to all types): filters the new type does not have are left out,
 * quietly, because the person chose the switch. Back to page 1.
 */
export function withType(filter: MarketFilter, nftType: NftTypeCode | undefined): MarketFilter {
  const keep = <K extends string, V>(entries: Partial<Record<K, V>>, specs: Record<K, { types: readonly NftTypeCode[] }>) =>
    Object.fromEntries(Object.entries(entries).filter(([key]) => applies(specs[key as K].types, nftType))) as Partial<Record<K, V>>;
  return {
    ...filter,
    nftType,
    lists: keep(filter.lists, LIST_FILTERS),
    ranges: keep(filter.ranges, RANGE_FILTERS),
    sort: filter.sort.startsWith("total-") && nftType !== NFT_TYPE.spaceship ? DEFAULT_SORT : filter.sort,
    page: DEFAULT_PAGE,
  };
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

/** A list filter with a JSON-safe range: what the backend client sends (wei as decimal text). */
export type MarketQuery = Record<string, string | number | number[] | Record<string, string | number>>;

/** The market API's listing query (SPEC §3 listing filters) for a filter; `address` is the visitor's wallet. */
export function toMarketQuery(filter: MarketFilter, address?: string): MarketQuery {
  const [sort, order] = filter.sort.split("-") as [SortKey, SortOrder];
  const query: MarketQuery = { pageNumber: filter.page, pageSize: filter.pageSize };
  if (address) query.address = address;
  if (filter.nftType !== undefined) query.nftType = filter.nftType;
  const { pse, egse, equipment, ...lists } = filter.lists;
  for (const [key, list] of Object.entries(lists)) if (list?.length) query[key] = list;
  const type = pse ?? egse;
  if (type?.length) query.type = type;
  if (equipment?.length) query.equipmentCode = equipment;
  const min: Record<string, string | number> = {};
  const max: Record<string, string | number> = {};
  for (const key of RANGE_KEYS) {
    const range = filter.ranges[key];
    if (range?.min !== undefined) min[key] = range.min;
    if (range?.max !== undefined) max[key] = range.max;
  }
  if (filter.price?.min !== undefined) min.price = filter.price.min.toString();
  if (filter.price?.max !== undefined) max.price = filter.price.max.toString();
  if (Object.keys(min).length) query.min = min;
  if (Object.keys(max).length) query.max = max;
  if (filter.currency) query.currency = filter.currency;
  query.sort = sort;
  query.order = order;
  return query;
}

// ---- chips: one link per active filter value, which removes just that value ----------------------------------

export interface Chip {
  label: string;
  /** The canonical market URL without this value (back on page 1). */
  href: string;
}

function rangeText<T extends number | bigint>(range: { min?: T; max?: T }, format: (value: T) => string = String): string {
  if (range.min !== undefined && range.max !== undefined) return range.min === range.max ? format(range.min) : `${format(range.min)}–${format(range.max)}`;
  return range.min !== undefined ? `≥ ${format(range.min)}` : `≤ ${format(range.max!)}`;
}

export function filterChips(filter: MarketFilter): Chip[] {
  const base = { ...filter, page: DEFAULT_PAGE };
  const chips: Chip[] = [];
  if (filter.nftType !== undefined) chips.push({ label: `Type: ${NFT_TYPE_LABELS[filter.nftType]}`, href: marketHref(withType(base, undefined)) });
  for (const key of LIST_KEYS) {
    const spec: ListSpec = LIST_FILTERS[key];
    for (const code of filter.lists[key] ?? []) {
      const rest = filter.lists[key]!.filter((other) => other !== code);
      const lists = { ...base.lists, [key]: rest };
      if (!rest.length) delete lists[key];
      chips.push({ label: `${spec.label}: ${spec.options[code]}`, href: marketHref({ ...base, lists }) });
    }
  }
  for (const key of RANGE_KEYS) {
    const range = filter.ranges[key];
    if (!range) continue;
    const ranges = { ...base.ranges };
    delete ranges[key];
    chips.push({ label: `${RANGE_FILTERS[key].label} ${rangeText(range)}`, href: marketHref({ ...base, ranges }) });
  }
  if (filter.currency) chips.push({ label: `Currency: ${filter.currency}`, href: marketHref({ ...base, currency: undefined }) });
  if (filter.price) {
    chips.push({
      label: `Price ${rangeText(filter.price, (wei) => formatWei(wei, { group: true }))}${filter.currency ? ` ${filter.currency}` : ""}`,
      href: marketHref({ ...base, price: undefined }),
    });
  }
  return chips;
}

/** The form's text for a range input: each side on its own. */
export function rangeInputValues(range: IntRange | WeiRange | undefined, isWei = false): [string, string] {
  const text = (value: number | bigint | undefined) => (value === undefined ? "" : isWei ? formatWei(value as bigint) : String(value));
  return [text(range?.min), text(range?.max)];
}

// ---- statistics ---------------------------------------------------------------------------------------------

export const PERIODS = { "1d": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days", all: "All time" } as const;
export type Period = keyof typeof PERIODS;
const DEFAULT_PERIOD: Period = "30d";
/** SPEC §3: the statistics offer levels 1 to 9. */
export const STAT_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

/** SPEC §3 statistics filters: All or one type, camp, rarity, PSE, EGSE, spaceship kind, level; plus period, currency, page. */
export interface StatsFilter {
  nftType?: NftTypeCode;
  camp?: number;
  rarity?: number;
  pse?: number;
  egse?: number;
  rank?: number;
  level?: number;
  period: Period;
  currency?: Currency;
  page: number;
}

const STAT_ENUMS = {
  camp: { label: "Camp", options: CAMPS, implies: undefined },
  rarity: { label: "Rarity", options: RARITIES, implies: undefined },
  pse: { label: "PSE type", options: PSE_TYPES, implies: 2 },
  egse: { label: "EGSE type", options: EGSE_TYPES, implies: 3 },
  rank: { label: "Spaceship type", options: SPACESHIP_TYPES, implies: 4 },
} as const satisfies Record<string, { label: string; options: Options; implies: NftTypeCode | undefined }>;
export type StatEnumKey = keyof typeof STAT_ENUMS;
export const STAT_ENUM_KEYS = Object.keys(STAT_ENUMS) as StatEnumKey[];
export function statEnum(key: StatEnumKey): { label: string; options: Options } {
  return STAT_ENUMS[key];
}

/** Activity pages go this deep at 10 a page. */
const STATS_PAGE_SIZE = 10;

export function parseStatsFilter(params: URLSearchParams): Parsed<StatsFilter> {
  const notices = new Notices();
  const raw = collect(params);
  const take = (key: string) => {
    const values = raw.get(key);
    raw.delete(key);
    return values;
  };
  const filter: StatsFilter = { period: DEFAULT_PERIOD, page: DEFAULT_PAGE };
  const typeText = single(take("nftType"), "Type", notices);
  if (typeText !== undefined) {
    const code = parseNftType(typeText);
    if (code === undefined) notices.add(`Type: ${shown(typeText)} is not an NFT type, so all types are shown.`);
    else filter.nftType = code;
  }
  for (const key of STAT_ENUM_KEYS) {
    const text = single(take(key), STAT_ENUMS[key].label, notices);
    if (text === undefined) continue;
    const code = parseCode(text, STAT_ENUMS[key].options);
    if (code === undefined) {
      notices.add(`${STAT_ENUMS[key].label}: ${shown(text)} is not a known value, so it was ignored.`);
      continue;
    }
    const implies: NftTypeCode | undefined = STAT_ENUMS[key].implies;
    if (implies !== undefined && filter.nftType === undefined) filter.nftType = implies;
    if (implies !== undefined && filter.nftType !== implies) {
      notices.add(`${STAT_ENUMS[key].label} applies to ${NFT_TYPE_LABELS[implies].toLowerCase()} only, so it was ignored.`);
      continue;
    }
    filter[key] = code;
  }
  const levelText = single(take("level"), "Level", notices);
  if (levelText !== undefined) {
    const level = intParser(1, STAT_LEVELS.length)(levelText);
    if (level === undefined) notices.add(`Level: ${shown(levelText)} is not a level from 1 to ${STAT_LEVELS.length}, so it was ignored.`);
    else filter.level = level;
  }
  const period = single(take("period"), "Period", notices);
  if (period !== undefined) {
    if (period in PERIODS) filter.period = period as Period;
    else notices.add(`Period: ${shown(period)} is not one of ${Object.keys(PERIODS).join(", ")}, so the last 30 days are shown.`);
  }
  const currency = single(take("currency"), "Currency", notices);
  if (currency !== undefined) {
    if (isCurrency(currency.toUpperCase())) filter.currency = currency.toUpperCase() as Currency;
    else notices.add(`Currency: ${shown(currency)} is not one of ${CURRENCIES.join(", ")}, so it was ignored.`);
  }
  const pageText = single(take("page"), "Page", notices);
  if (pageText !== undefined) {
    const page = intParser(1, RESULT_WINDOW / STATS_PAGE_SIZE)(pageText);
    if (page === undefined) notices.add(`Page: ${shown(pageText)} is not a page number, so the first page is shown.`);
    else filter.page = page;
  }
  for (const key of raw.keys()) notices.add(`${shown(key)} is not a filter, so it was ignored.`);
  return { filter, notices: notices.list };
}

export function serializeStatsFilter(filter: StatsFilter): string {
  const parts: string[] = [];
  if (filter.nftType !== undefined) parts.push(`nftType=${filter.nftType}`);
  for (const key of STAT_ENUM_KEYS) if (filter[key] !== undefined) parts.push(`${key}=${filter[key]}`);
  if (filter.level !== undefined) parts.push(`level=${filter.level}`);
  if (filter.period !== DEFAULT_PERIOD) parts.push(`period=${filter.period}`);
  if (filter.currency) parts.push(`currency=${filter.currency}`);
  if (filter.page !== DEFAULT_PAGE) parts.push(`page=${filter.page}`);
  return parts.join("&");
}

export function statsHref(filter: StatsFilter): string {
  const search = serializeStatsFilter(filter);
  return search ? `${STATISTICS_PATH}?${search}` : STATISTICS_PATH;
}

/** The statistics API's query (topNft, activity). */
export function toStatsQuery(filter: StatsFilter, pageSize = STATS_PAGE_SIZE): MarketQuery {
  const query: MarketQuery = { pageNumber: filter.page, pageSize, period: filter.period };
  if (filter.nftType !== undefined) query.nftType = filter.nftType;
  if (filter.camp !== undefined) query.camp = [filter.camp];
  if (filter.rarity !== undefined) query.rarity = [filter.rarity];
  const type = filter.pse ?? filter.egse;
  if (type !== undefined) query.type = [type];
  if (filter.rank !== undefined) query.rank = [filter.rank];
  if (filter.level !== undefined) query.level = [filter.level];
  if (filter.currency) query.currency = filter.currency;
  return query;
}

// ---- storage ---------------------------------------------------------------------------------------------------

export const STORAGE_TABS = { items: "My items", selling: "Selling", favorites: "Favorites" } as const;
export type StorageTab = keyof typeof STORAGE_TABS;

export interface StorageFilter {
  tab: StorageTab;
  nftType?: NftTypeCode;
  page: number;
}

export function parseStorageFilter(params: URLSearchParams): Parsed<StorageFilter> {
  const notices = new Notices();
  const raw = collect(params);
  const take = (key: string) => {
    const values = raw.get(key);
    raw.delete(key);
    return values;
  };
  const filter: StorageFilter = { tab: "items", page: DEFAULT_PAGE };
  const tab = single(take("tab"), "Tab", notices);
  if (tab !== undefined) {
    if (tab in STORAGE_TABS) filter.tab = tab as StorageTab;
    else notices.add(`Tab: ${shown(tab)} is not one of ${Object.keys(STORAGE_TABS).join(", ")}, so your items are shown.`);
  }
  const typeText = single(take("nftType"), "Type", notices);
  if (typeText !== undefined) {
    const code = parseNftType(typeText);
    if (code === undefined) notices.add(`Type: ${shown(typeText)} is not an NFT type, so all types are shown.`);
    else filter.nftType = code;
  }
  const pageText = single(take("page"), "Page", notices);
  if (pageText !== undefined) {
    const page = intParser(1, RESULT_WINDOW / DEFAULT_PAGE_SIZE)(pageText);
    if (page === undefined) notices.add(`Page: ${shown(pageText)} is not a page number, so the first page is shown.`);
    else filter.page = page;
  }
  for (const key of raw.keys()) notices.add(`${shown(key)} is not a filter, so it was ignored.`);
  return { filter, notices: notices.list };
}

export function serializeStorageFilter(filter: StorageFilter): string {
  const parts: string[] = [];
  if (filter.tab !== "items") parts.push(`tab=${filter.tab}`);
  if (filter.nftType !== undefined) parts.push(`nftType=${filter.nftType}`);
  if (filter.page !== DEFAULT_PAGE) parts.push(`page=${filter.page}`);
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

/**
 * Is `search` (the request's query string, with or without "?") already the canonical one? Compared as
 * form-encoded text, because the framework hands loaders a re-encoded URL ("," arrives as "%2C"); framework
 * keys are ignored, so a data request never redirects to itself.
 */
export function isCanonical(search: string, canonical: string): boolean {
  const params = new URLSearchParams(search);
  for (const key of TRANSPORT_KEYS) params.delete(key);
  return params.toString() === new URLSearchParams(canonical).toString();
}
