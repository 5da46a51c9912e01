/**
 * The market view's codec: URL ⇄ `MarketFilter` ⇄ the listing query of product §3. Also the links that
 * change one thing about a view (page, type).
 */
import { HISTORY_PERIODS } from "~core/api/market";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from "~core/constants";
import { formatWei, parseTokenAmount } from "~core/money";
import { NFT_TYPE, type NftTypeCode } from "~core/nft";
import {
  DEFAULT_SORT,
  LIST_FILTERS,
  LIST_KEYS,
  type ListSpec,
  type MarketFilter,
  PAGE_SIZES,
  RANGE_FILTERS,
  RANGE_KEYS,
  type RangeSpec,
  SORT_KEYS,
  type SortKey,
  VENUES,
  type Venue,
  type SortOption,
  type SortOrder,
  applies,
  defaultMarketFilter,
} from "./market-options";
import { FilterParams, MARKET_PATH, NFT_TYPE_LABELS, type Parsed, RESULT_WINDOW, intParser, parseList, parseRange, shown } from "./shared";
import type { MarketQuery } from "~/services/market.server";

/** Other spellings accepted on the way in (product §3: camp comes from "faction"); never written. */
const ALIASES: Record<string, string> = { faction: "camp", pageNumber: "page" };

/** The price history's period when the URL names none. */
export const DEFAULT_PERIOD = HISTORY_PERIODS[0];

/** Without an order, price goes cheapest first and everything else most/newest first (as the market API does). */
const DEFAULT_ORDER: Record<SortKey, SortOrder> = { listed: "desc", price: "asc", views: "desc", favorites: "desc", total: "desc" };

function parseSort(sort: string | undefined, order: string | undefined): SortOption | undefined {
  const [key, direction] = (sort ?? "listed").toLowerCase().split("-");
  const orderValue = direction ?? order?.toLowerCase();
  if (!(SORT_KEYS as readonly string[]).includes(key)) return undefined;
  if (orderValue !== undefined && orderValue !== "asc" && orderValue !== "desc") return undefined;
  return `${key}-${orderValue ?? DEFAULT_ORDER[key as SortKey]}` as SortOption;
}

function typesLabel(types: readonly NftTypeCode[]) {
  return types.map((type) => NFT_TYPE_LABELS[type].toLowerCase()).join(", ");
}

export function parseMarketFilter(search: URLSearchParams): Parsed<MarketFilter> {
  const params = new FilterParams(search, ALIASES);
  const { notices } = params;
  const filter = defaultMarketFilter();

  // An nftType key that is present but empty is the form's "All types": nothing is inferred then.
  const typeChosen = params.has("nftType");
  const nftType = params.nftType();
  if (nftType !== undefined) filter.nftType = nftType;

  for (const key of LIST_KEYS) {
    const values = params.take(key);
    const spec: ListSpec = LIST_FILTERS[key];
    const list = values && parseList(values, spec.options, spec.label, notices);
    if (list) filter.lists[key] = list;
  }
  // The query's own name for PSE/EGSE types, read against the chosen type.
  const typeAlias = params.take("type");
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
    const values = params.take(key);
    if (!values) continue;
    const spec: RangeSpec = RANGE_FILTERS[key];
    const expected = `a range of whole numbers from ${spec.min} to ${spec.max}`;
    const range = parseRange(values, intParser(spec.min, spec.max), spec.label, expected, notices);
    if (range) filter.ranges[key] = range;
  }

  const currency = params.currency();
  if (currency !== undefined) filter.currency = currency;
  const price = params.take("price");
  if (price) {
    const range = parseRange(price, (text) => parseTokenAmount(text), "Price", "a price range such as 0.5,12", notices);
    if (range) filter.price = range;
  }

  const venueText = params.one("venue", "Venue");
  if (venueText !== undefined) {
    const venue = venueText.toLowerCase();
    if ((VENUES as readonly string[]).includes(venue)) filter.venue = venue as Venue;
    else if (venue !== "all") notices.add(`Venue: ${shown(venueText)} is not game, chain or all, so listings of both are shown.`);
  }

  const periodText = params.one("period", "Period");
  if (periodText !== undefined) {
    const period = periodText.toLowerCase();
    if ((HISTORY_PERIODS as readonly string[]).includes(period)) {
      if (period !== DEFAULT_PERIOD) filter.period = period as MarketFilter["period"];
    } else notices.add(`Period: ${shown(periodText)} is not ${HISTORY_PERIODS.join(", ")}, so the price history shows the last 30 days.`);
  }

  const sortText = params.one("sort", "Sort");
  const orderText = params.one("order", "Order");
  if (sortText !== undefined || orderText !== undefined) {
    const sort = parseSort(sortText, orderText);
    if (sort) filter.sort = sort;
    else
      notices.add(
        `Sort: ${shown([sortText, orderText].filter(Boolean).join(" "))} is not a sort order, so the newest listings come first.`,
      );
  }

  const pageSizeText = params.one("pageSize", "Page size");
  if (pageSizeText !== undefined) {
    const size = Number(pageSizeText);
    if ((PAGE_SIZES as readonly number[]).includes(size) && /^\d+$/.test(pageSizeText)) filter.pageSize = size;
    else
      notices.add(`Page size: ${shown(pageSizeText)} is not one of ${PAGE_SIZES.join(", ")}, so ${DEFAULT_PAGE_SIZE} per page are shown.`);
  }
  const page = params.page(RESULT_WINDOW);
  if (page !== undefined) {
    if (page * filter.pageSize > RESULT_WINDOW) {
      notices.add(
        `Page ${page}: the market shows the first ${RESULT_WINDOW.toLocaleString("en")} results only; narrow the filters to see further.`,
      );
    } else filter.page = page;
  }

  params.rejectRest();

  // product §3 "rank (mapped for spaceships), type (from pse or egse)": an attribute of one type implies that type.
  if (filter.nftType === undefined && !typeChosen) {
    const implied =
      [
        ...LIST_KEYS.filter((key) => filter.lists[key]).map((key) => LIST_FILTERS[key].types),
        ...RANGE_KEYS.filter((key) => filter.ranges[key]).map((key) => RANGE_FILTERS[key].types),
      ].find((types) => types.length === 1)?.[0] ?? (filter.sort.startsWith("total-") ? NFT_TYPE.spaceship : undefined);
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
  if (filter.venue) parts.push(`venue=${filter.venue}`);
  if (filter.period) parts.push(`period=${filter.period}`);
  if (filter.sort !== DEFAULT_SORT) parts.push(`sort=${filter.sort}`);
  if (filter.pageSize !== DEFAULT_PAGE_SIZE) parts.push(`pageSize=${filter.pageSize}`);
  if (filter.page !== DEFAULT_PAGE) parts.push(`page=${filter.page}`);
  return parts.join("&");
}

/** A filter's canonical URL on the market, or on another view of listings with the same filter (a player's page). */
export function marketHref(filter: MarketFilter, path = MARKET_PATH): string {
  const search = serializeMarketFilter(filter);
  return search ? `${path}?${search}` : path;
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

/** The market API's listing query (product §3 listing filters) for a filter; `address` is the visitor's wallet. */
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
  if (filter.venue) query.venue = filter.venue;
  query.sort = sort;
  query.order = order;
  return query;
}
