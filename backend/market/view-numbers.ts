/**
 * The numbers of a market view (floor per currency, listed, 24 h / 7 d volume, last sale) and price history, for
 * exactly the view's filter (decision 0022). Listings come from the listing query itself; sales are the activity log's
 * sales joined to their listing, filtered by the listing query's own filter (viewFilterSql), so a sale counts in
 * exactly the views its listing was shown in.
 */
import { CURRENCIES, type Currency } from "~core/money";
import type { CurrencyAmount, HistoryPeriod, PriceHistory, ViewNumbers } from "~core/api/market";
import type { Sql } from "./db";
import type { ListingQuery } from "./listing-schemas";
import { readWei } from "./money";
import { queryListings, viewFilterSql } from "./query";
import { ACTIVITY_KIND } from "./tables";
import { byGeneration } from "./generation-cache";

export const DAY = 86_400_000;
const WINDOWS = [
  { window: "24h", ms: DAY },
  { window: "7d", ms: 7 * DAY },
] as const;

/** A view's sales, or one item's: the FROM and WHERE of the activity log's sales (alias a, listing alias l). */
export type SalesOf = { query: ListingQuery } | { itemId: number };

function salesSql(of: SalesOf): { from: string; where: string[]; params: unknown[] } {
  if ("itemId" in of) return { from: "market_activity a", where: ["a.kind = ?", "a.item_id = ?"], params: [ACTIVITY_KIND.sale, of.itemId] };
  const filter = viewFilterSql(of.query);
  return {
    from: "market_activity a join market_listings l on l.id = a.listing_id",
    // The activity row's own type narrows the walk of its (kind, nft_type, at) index.
    where: ["a.kind = ?", ...(filter.nftType === undefined ? [] : ["a.nft_type = ?"]), ...filter.where],
    params: [ACTIVITY_KIND.sale, ...(filter.nftType === undefined ? [] : [filter.nftType]), ...filter.params],
  };
}

const lower = (a: bigint, b: bigint) => (a < b ? a : b);

/** A cache key of a view's filter (paging and the visitor left out; wei as text). */
function viewKey(of: SalesOf): string {
  if ("itemId" in of) return `item ${of.itemId}`;
  const { pageNumber: _page, pageSize: _size, address: _address, ...filter } = of.query;
  return JSON.stringify(filter, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

/** When the next sale after `now` (one the chain dated ahead of our clock) comes into the view's windows; null if none. */
async function nextSaleAt(db: Sql, sales: ReturnType<typeof salesSql>, now: number): Promise<number | null> {
  const row = await db.get<{ at: number | null }>(
    `select min(a.at) as at from ${sales.from} where ${[...sales.where, "a.at > ?"].join(" and ")}`,
    [...sales.params, now],
  );
  return row?.at == null ? null : Number(row.at);
}

const earliest = (...times: (number | null)[]) => Math.min(...times.map((t) => t ?? Infinity));

/**
 * The numbers at the top of a market view at `now` (ms). Kept while the market stands still and no sale enters or
 * leaves a window (generation-cache.ts), so a view's numbers are computed once per change, not once per visit.
 */
export async function viewNumbers(db: Sql, query: ListingQuery, now: number): Promise<ViewNumbers> {
  const numbers = await byGeneration(db, `numbers ${viewKey({ query })}`, now, async () => {
    const value = await computeViewNumbers(db, query, now);
    return { value, until: earliest(value.changesAt ? Date.parse(value.changesAt) : null, await nextSaleAt(db, salesSql({ query }), now)) };
  });
  return { ...numbers, asOf: new Date(now).toISOString() };
}

async function computeViewNumbers(db: Sql, query: ListingQuery, now: number): Promise<ViewNumbers> {
  const one = { ...query, pageNumber: 1, pageSize: 1 };
  const all = await queryListings(db, { kind: "market" }, one);
  // One walk of the price index per currency: the cheapest comes first.
  const currencies = query.currency ? [query.currency] : CURRENCIES;
  const floors = await Promise.all(
    currencies.map(async (currency) => {
      const page = await queryListings(db, { kind: "market" }, { ...one, currency, sort: "price", order: "asc" });
      const first = page.records[0];
      return first?.price ? { currency, price: first.price, listed: page.total } : null;
    }),
  );
  const sales = salesSql({ query });
  const rows = await db.all<{ price: string; currency: Currency; at: number }>(
    `select a.price, a.currency, a.at from ${sales.from} where ${[...sales.where, "a.at > ?", "a.at <= ?"].join(" and ")}`,
    [...sales.params, now - 7 * DAY, now],
  );
  let changesAt: number | null = null;
  const windows = WINDOWS.map(({ window, ms }) => {
    const volume = new Map<Currency, bigint>();
    let count = 0;
    for (const row of rows) {
      if (Number(row.at) <= now - ms) continue;
      count++;
      volume.set(row.currency, (volume.get(row.currency) ?? 0n) + readWei(row.price));
      const leaves = Number(row.at) + ms;
      changesAt = changesAt === null ? leaves : Math.min(changesAt, leaves);
    }
    const amounts: CurrencyAmount[] = CURRENCIES.filter((c) => volume.has(c)).map((c) => ({
      currency: c,
      amount: volume.get(c)!.toString(),
    }));
    return { window, sales: count, volume: amounts };
  });
  const last = await db.get<{ price: string; currency: Currency; at: number; token_id: string; nft_type: number }>(
    `select a.price, a.currency, a.at, a.token_id, a.nft_type from ${sales.from} where ${[...sales.where, "a.at <= ?"].join(" and ")}
     order by a.at desc, a.id desc limit 1`,
    [...sales.params, now],
  );
  return {
    floor: floors.filter((floor) => floor !== null),
    listed: { total: all.total, capped: all.totalCapped },
    windows,
    lastSale: last
      ? {
          price: readWei(last.price).toString(),
          currency: last.currency,
          at: new Date(Number(last.at)).toISOString(),
          tokenId: last.token_id,
          nftType: Number(last.nft_type),
        }
      : null,
    asOf: new Date(now).toISOString(),
    changesAt: changesAt === null ? null : new Date(changesAt).toISOString(),
  };
}

/** Days and bucket size of each fixed period; "all" starts at the first sale, in at most MAX_BUCKETS buckets. */
const PERIOD_DAYS: Record<Exclude<HistoryPeriod, "all">, { days: number; bucketDays: number }> = {
  "7d": { days: 7, bucketDays: 1 },
  "30d": { days: 30, bucketDays: 1 },
  "90d": { days: 90, bucketDays: 3 },
};
const MAX_BUCKETS = 30;

/** Sales per bucket of whole UTC days (today included) and currency: count, cheapest and dearest; kept as viewNumbers is. */
export async function priceHistory(db: Sql, of: SalesOf, period: HistoryPeriod, now: number): Promise<PriceHistory> {
  return await byGeneration(db, `history ${period} ${viewKey(of)}`, now, async () => {
    const value = await computeHistory(db, of, period, now);
    return { value, until: earliest(Date.parse(value.changesAt), await nextSaleAt(db, salesSql(of), now)) };
  });
}

async function computeHistory(db: Sql, of: SalesOf, period: HistoryPeriod, now: number): Promise<PriceHistory> {
  const today = Math.floor(now / DAY);
  const sales = salesSql(of);
  const fixed = period === "all" ? undefined : PERIOD_DAYS[period];
  const where = [...sales.where, "a.at <= ?", ...(fixed ? ["a.at >= ?"] : [])];
  const params = [...sales.params, now, ...(fixed ? [(today - fixed.days + 1) * DAY] : [])];
  const rows = await db.all<{ day: number; currency: Currency; n: number; low: string; high: string }>(
    `select a.at / ${DAY} as day, a.currency as currency, count(*) as n, min(a.price) as low, max(a.price) as high
     from ${sales.from} where ${where.join(" and ")} group by a.at / ${DAY}, a.currency`,
    params,
  );
  let firstDay = today;
  for (const row of rows) firstDay = Math.min(firstDay, Math.floor(Number(row.day)));
  const span = fixed ? fixed.days : today - firstDay + 1;
  const bucketDays = fixed ? fixed.bucketDays : Math.ceil(span / MAX_BUCKETS);
  const from = fixed ? today - fixed.days + 1 : firstDay;
  const buckets = Math.ceil(span / bucketDays);
  const byCurrency = new Map<Currency, Map<number, { sales: number; low: bigint; high: bigint }>>();
  for (const row of rows) {
    const index = Math.floor((Math.floor(Number(row.day)) - from) / bucketDays);
    const points = byCurrency.get(row.currency) ?? new Map();
    byCurrency.set(row.currency, points);
    const point = points.get(index);
    const low = readWei(row.low);
    const high = readWei(row.high);
    if (!point) points.set(index, { sales: Number(row.n), low, high });
    else points.set(index, { sales: point.sales + Number(row.n), low: lower(point.low, low), high: point.high > high ? point.high : high });
  }
  return {
    period,
    from: new Date(from * DAY).toISOString(),
    bucketDays,
    buckets,
    series: CURRENCIES.filter((c) => byCurrency.has(c)).map((currency) => ({
      currency,
      points: [...byCurrency.get(currency)!]
        .sort(([a], [b]) => a - b)
        .map(([index, p]) => ({ index, sales: p.sales, low: p.low.toString(), high: p.high.toString() })),
    })),
    changesAt: new Date((today + 1) * DAY).toISOString(),
  };
}
