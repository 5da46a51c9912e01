/**
 * The numbers of a market view and the price history (issue 30), as text and SVG paths made on the server: the
 * page's components (view-numbers.tsx) only place them, so the browser gets no formatting or chart code.
 */
import { HISTORY_PERIODS, type HistoryPeriod, type PriceHistory, type TokenRef, type ViewNumbers } from "~core/api/market";
import { formatIsoTime } from "~core/chain-text";
import { formatPrice } from "~core/money";
import { DEFAULT_PERIOD, toMarketQuery } from "~/features/market/filters/market";
import type { MarketFilter } from "~/features/market/filters/market-options";
import { PAGE_CACHE_UNTIL_HEADER } from "~/services/page-headers.server";
import { backendProblem, publicApis } from "~/services/apis.server";
import { serverMarkup } from "~/services/server-html.server";
import { pricePaths } from "./chart-paths";
import type { ChartView, HistoryView, Stat } from "./number-views";
import { priceHistoryHtml, viewNumbersHtml } from "./view-numbers.server";

const DAY = 86_400_000;
/** The chart's drawing box (viewBox units); it scales to its column's width. */
const BOX = { width: 300, height: 100, left: 0, top: 6, bottom: 6 };
const PERIOD_LABELS: Record<HistoryPeriod, string> = { "7d": "7 days", "30d": "30 days", "90d": "90 days", all: "All time" };
/** The period links, shortest first. */
const PERIOD_ORDER: HistoryPeriod[] = ["7d", "30d", "90d", "all"];

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The price history's view: one chart and table per currency (amounts in different tokens do not compare). */
export function historyView(history: PriceHistory, hrefOf: (period: HistoryPeriod) => string, open: boolean): HistoryView {
  const from = Date.parse(history.from);
  const bucketLabel = (index: number) => {
    const start = from + index * history.bucketDays * DAY;
    return history.bucketDays === 1 ? day(start) : `${day(start)} – ${day(start + (history.bucketDays - 1) * DAY).slice(5)}`;
  };
  const charts = history.series.map(({ currency, points }): ChartView => {
    const chart = points.map((p) => ({ index: p.index, low: BigInt(p.low), high: BigInt(p.high) }));
    const paths = pricePaths(chart, history.buckets, BOX);
    const sales = points.reduce((n, p) => n + p.sales, 0);
    const low = formatPrice(paths.min, currency);
    const high = formatPrice(paths.max, currency);
    return {
      caption: `${currency}: ${sales} ${sales === 1 ? "sale" : "sales"}, from ${low} to ${high}.`,
      ranges: paths.ranges,
      lows: paths.lows,
      high,
      low,
      span: `${bucketLabel(0)} → ${bucketLabel(history.buckets - 1)}`,
      rows: points.map((p) => [bucketLabel(p.index), String(p.sales), formatPrice(p.low, currency), formatPrice(p.high, currency)]),
    };
  });
  return {
    open,
    heading: `Price history · ${PERIOD_LABELS[history.period].toLowerCase()}`,
    periods: PERIOD_ORDER.map((period) => ({ label: PERIOD_LABELS[period], href: hrefOf(period), current: period === history.period })),
    charts,
    empty: charts.length ? null : "No sales in this period.",
  };
}

/** The numbers at the top of a view: each a label, its values (one per currency) and a note. */
export function statsView(numbers: ViewNumbers): Stat[] {
  const prices = (amounts: { currency: string; amount: string }[]) =>
    amounts.length ? amounts.map((a) => formatPrice(a.amount, a.currency)) : ["—"];
  const sales = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "sale" : "sales"}`;
  const [today, week] = numbers.windows;
  return [
    { label: "Floor", values: prices(numbers.floor.map((f) => ({ currency: f.currency, amount: f.price }))), note: null },
    { label: "Listed", values: [`${numbers.listed.total.toLocaleString("en")}${numbers.listed.capped ? "+" : ""}`], note: null },
    { label: "24 h volume", values: prices(today.volume), note: sales(today.sales) },
    { label: "7 d volume", values: prices(week.volume), note: sales(week.sales) },
    {
      label: "Last sale",
      values: [numbers.lastSale ? formatPrice(numbers.lastSale.price, numbers.lastSale.currency) : "—"],
      note: numbers.lastSale ? formatIsoTime(numbers.lastSale.at) : null,
    },
  ];
}

/** The period a URL names, or the default. */
export function periodOf(params: URLSearchParams): HistoryPeriod {
  const period = params.get("period")?.toLowerCase();
  return (HISTORY_PERIODS as readonly string[]).includes(period ?? "") ? (period as HistoryPeriod) : DEFAULT_PERIOD;
}

/**
 * Bounds the visitor page cache by when the numbers change without the market moving (a sale leaves a window, the
 * history's buckets move on at UTC midnight).
 */
function cacheUntil(headers: Headers, times: (string | null)[]) {
  const until = Math.min(...times.map((t) => (t ? Date.parse(t) : Infinity)));
  if (Number.isFinite(until)) headers.set(PAGE_CACHE_UNTIL_HEADER, String(until));
}

/**
 * A market view's numbers (for the top of the view) and price history (for after its results, so that on a phone the
 * charts do not push the items down) as markup; empty (the view shows without them) when the market cannot say.
 */
export async function marketNumbers(filter: MarketFilter, hrefOf: (period: HistoryPeriod) => string, headers: Headers) {
  const query = toMarketQuery(filter);
  const period = filter.period ?? DEFAULT_PERIOD;
  try {
    const market = publicApis().market;
    const [numbers, history] = await Promise.all([market.viewNumbers(query), market.priceHistory(query, period)]);
    cacheUntil(headers, [numbers.changesAt, history.changesAt]);
    return {
      top: serverMarkup(viewNumbersHtml(statsView(numbers))),
      history: serverMarkup(priceHistoryHtml(historyView(history, hrefOf, filter.period !== undefined))),
    };
  } catch (error) {
    backendProblem(error);
    return { top: serverMarkup(""), history: serverMarkup("") };
  }
}

/** One item's price history on its page, as markup; the period links keep the page's other parameters. */
export async function itemHistoryHtml(ref: TokenRef, url: URL): Promise<string> {
  const hrefOf = (period: HistoryPeriod) => {
    const params = new URLSearchParams(url.searchParams);
    if (period === DEFAULT_PERIOD) params.delete("period");
    else params.set("period", period);
    return `${url.pathname}?${params}`;
  };
  try {
    const history = await publicApis().market.priceHistory(ref, periodOf(url.searchParams));
    return priceHistoryHtml(historyView(history, hrefOf, url.searchParams.has("period")));
  } catch (error) {
    backendProblem(error);
    return "";
  }
}
