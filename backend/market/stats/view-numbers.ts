/**
 * The numbers of a market view (floor per currency, listed, 24 h / 7 d volume, last sale) and price history, for
 * exactly the view's filter (decision 0022). Listings come from the listing query itself; sales are the activity log's
 * sales joined to their listing, filtered by the listing query's own filter (viewFilterSql), so a sale counts in
 * exactly the views its listing was shown in.
 */
import { CURRENCIES, type Currency } from "~core/money";
import type { CurrencyAmount, HistoryPeriod, PriceHistory, ViewNumbers } from "~core/api/market";
import type { Sql } from "../shared/db";
import type { ListingQuery } from "../shared/listing-schemas";
import { readWei } from "../shared/money";
import { buildListingSql, queryListings, viewFacets, viewFilterSql, viewQuery } from "../listings";
import { RESULT_WINDOW } from "../shared/params";
import { ACTIVITY_KIND } from "../shared/tables";
import { byGeneration } from "../shared/generation-cache";
import { DAY, FACET_COLUMNS, type FacetColumn, GRAINS, HOUR, SALE_DAYS, SALE_HOURS, type SaleUnit } from "../shared/sale-days";

export { DAY };
const WINDOWS = [
  { window: "24h", ms: DAY },
  { window: "7d", ms: 7 * DAY },
] as const;

/** A view's sales, or one item's: the FROM and WHERE of the activity log's sales (alias a, listing alias l). */
export type SalesOf = { query: ListingQuery } | { itemId: number };

function salesSql(of: SalesOf): { from: string; where: string[]; params: unknown[] } {
  if ("itemId" in of) return { from: "market_activity a", where: ["a.kind = ?", "a.item_id = ?"], params: [ACTIVITY_KIND.sale, of.itemId] };
  const filter = viewFilterSql(of.query);
  // A filter on the type alone (or none) needs no listing: the activity row carries the type.
  if (filter.where.length === (filter.nftType === undefined ? 0 : 1)) {
    return {
      from: "market_activity a",
      where: ["a.kind = ?", "a.listing_id is not null", ...(filter.nftType === undefined ? [] : ["a.nft_type = ?"])],
      params: [ACTIVITY_KIND.sale, ...(filter.nftType === undefined ? [] : [filter.nftType])],
    };
  }
  return {
    from: "market_activity a join market_listings l on l.id = a.listing_id",
    // The activity row's own type narrows the walk of its (kind, nft_type, at) index.
    where: ["a.kind = ?", ...(filter.nftType === undefined ? [] : ["a.nft_type = ?"]), ...filter.where],
    params: [ACTIVITY_KIND.sale, ...(filter.nftType === undefined ? [] : [filter.nftType]), ...filter.params],
  };
}

const lower = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * A view's cells in the sale rollups (shared/sale-days.ts): the first grain holding every column the view filters on, and
 * the view's values of them. Null for an item, or a view filtering on anything else (it reads its sales raw).
 */
type Rollup = { where: string[]; params: unknown[] };

function rollupOf(of: SalesOf, rollups: boolean): Rollup | null {
  const facets = "itemId" in of || !rollups ? null : viewFacets(of.query);
  if (!facets) return null;
  const { currency, ...values } = facets;
  const columns = Object.keys(values) as FacetColumn[];
  const grain = GRAINS.findIndex((held) => columns.every((column) => held.includes(column)));
  // Every key column before the day or hour is pinned, so the primary key seeks each cell and reads only the time
  // range: a column the grain leaves out is -1, and a view naming no currency names them all.
  const left = FACET_COLUMNS.filter((column) => !GRAINS[grain].includes(column));
  const currencies = currency ? [currency] : CURRENCIES;
  const where = [
    "grain = ?",
    ...columns.map((column) => `${column} in (${values[column]!.map(() => "?").join(", ")})`),
    ...left.map((column) => `${column} = -1`),
    `currency in (${currencies.map(() => "?").join(", ")})`,
  ];
  const params: unknown[] = [grain, ...columns.flatMap((column) => values[column]!), ...currencies];
  return { where, params };
}

type SaleRow = { price: string; currency: Currency; at: number };

/** The view's sales with `after` < at ≤ `upTo`, through the activity log's time index. */
async function rawSales(db: Sql, sales: ReturnType<typeof salesSql>, after: number, upTo: number): Promise<SaleRow[]> {
  return await db.all<SaleRow>(
    `select a.price, a.currency, a.at from ${sales.from} where ${[...sales.where, "a.at > ?", "a.at <= ?"].join(" and ")}`,
    [...sales.params, after, upTo],
  );
}

/** The time of the view's first sale within unit number `n` (a UTC day or hour). */
async function firstSaleIn(db: Sql, sales: ReturnType<typeof salesSql>, unit: SaleUnit, n: number): Promise<number> {
  const row = await db.get<{ at: number }>(
    `select min(a.at) as at from ${sales.from} where ${[...sales.where, "a.at >= ?", "a.at < ?"].join(" and ")}`,
    [...sales.params, n * unit.ms, (n + 1) * unit.ms],
  );
  return Number(row!.at);
}

interface Tally {
  sales: number;
  volume: Map<Currency, bigint>;
  /** When its oldest sale leaves the window. */
  leaves: number | null;
}

function tally(rows: readonly SaleRow[], ms: number, into: Tally = { sales: 0, volume: new Map(), leaves: null }): Tally {
  for (const row of rows) {
    into.sales++;
    into.volume.set(row.currency, (into.volume.get(row.currency) ?? 0n) + readWei(row.price));
    into.leaves = earliest(into.leaves, Number(row.at) + ms);
  }
  return into;
}

/**
 * The 24 h and 7 d windows at `now`. Raw sales for a view the rollups do not keep. For one they do, each window from
 * cells: whole UTC days from the day cells, the whole hours around them from the hour cells, and only the two partial
 * hours at its ends raw, so a window reads at most about two hours of the view's sales.
 */
async function windowTallies(db: Sql, of: SalesOf, now: number, rollups: boolean): Promise<Tally[]> {
  const sales = salesSql(of);
  const rollup = rollupOf(of, rollups);
  if (!rollup) {
    const rows = await rawSales(db, sales, now - 7 * DAY, now);
    return WINDOWS.map(({ ms }) =>
      tally(
        rows.filter((row) => Number(row.at) > now - ms),
        ms,
      ),
    );
  }
  return await Promise.all(WINDOWS.map(({ ms }) => rangeTally(db, sales, rollup, now - ms, now, ms)));
}

/** The sales with `after` < at ≤ `upTo` from the rollups, raw only in the partial hours at either end. */
async function rangeTally(db: Sql, sales: ReturnType<typeof salesSql>, rollup: Rollup, after: number, upTo: number, ms: number) {
  // Units wholly inside the range: hour h holds h * HOUR ..< (h + 1) * HOUR.
  const firstHour = Math.ceil((after + 1) / HOUR);
  const endHour = Math.floor((upTo + 1) / HOUR);
  if (firstHour >= endHour) return tally(await rawSales(db, sales, after, upTo), ms);
  const firstDay = Math.ceil(firstHour / 24);
  const endDay = Math.floor(endHour / 24);
  const wholeDays = firstDay < endDay;
  // Hours before the whole days, the whole days, hours after them; in time order, so the first with sales is the oldest.
  const spans: [SaleUnit, number, number][] = wholeDays
    ? [
        [SALE_HOURS, firstHour, firstDay * 24],
        [SALE_DAYS, firstDay, endDay],
        [SALE_HOURS, endDay * 24, endHour],
      ]
    : [[SALE_HOURS, firstHour, endHour]];
  const head = await rawSales(db, sales, after, firstHour * HOUR - 1);
  const into = tally(head, ms);
  for (const [unit, from, to] of spans) {
    if (from >= to) continue;
    const cells = await db.all<{ at: number; currency: Currency; sales: number; volume: string }>(
      `select ${unit.column} as at, currency, sales, volume from ${unit.table}
       where ${[...rollup.where, `${unit.column} >= ?`, `${unit.column} < ?`].join(" and ")}`,
      [...rollup.params, from, to],
    );
    let first: number | null = null;
    for (const cell of cells) {
      into.sales += Number(cell.sales);
      into.volume.set(cell.currency, (into.volume.get(cell.currency) ?? 0n) + readWei(cell.volume));
      first = first === null ? Number(cell.at) : Math.min(first, Number(cell.at));
    }
    if (into.leaves === null && first !== null) into.leaves = (await firstSaleIn(db, sales, unit, first)) + ms;
  }
  return tally(await rawSales(db, sales, endHour * HOUR - 1, upTo), ms, into);
}

/** The view's last sale at or before `now`: for a kept view, searched within its last day with sales. */
async function lastSaleOf(db: Sql, of: SalesOf, now: number, rollups: boolean) {
  const sales = salesSql(of);
  const rollup = rollupOf(of, rollups);
  const newest = async (from: number | null) =>
    await db.get<{ price: string; currency: Currency; at: number; token_id: string; nft_type: number }>(
      `select a.price, a.currency, a.at, a.token_id, a.nft_type from ${sales.from}
       where ${[...sales.where, ...(from === null ? [] : ["a.at >= ?"]), "a.at <= ?"].join(" and ")} order by a.at desc, a.id desc limit 1`,
      [...sales.params, ...(from === null ? [] : [from]), now],
    );
  if (!rollup) return await newest(null);
  // A day's only sales may lie after `now` (the chain's clock ahead of ours): then the day before.
  for (let before = Math.floor(now / DAY); ; ) {
    const day = (
      await db.get<{ day: number | null }>(
        `select max(day) as day from market_sale_days where ${[...rollup.where, "day <= ?"].join(" and ")}`,
        [...rollup.params, before],
      )
    )?.day;
    if (day == null) return undefined;
    const last = await newest(Number(day) * DAY);
    if (last) return last;
    before = Number(day) - 1;
  }
}

type Listed = Pick<ViewNumbers, "floor" | "listed">;
const capped = (count: number) => ({ total: Math.min(count, RESULT_WINDOW), capped: count > RESULT_WINDOW });

/** The floors and counts through the listing query: its capped count, and per currency one walk of the price index. */
async function listedFromListings(db: Sql, query: ListingQuery): Promise<{ floors: Listed["floor"]; listed: Listed["listed"] }> {
  const one = { ...query, pageNumber: 1, pageSize: 1 };
  const all = await queryListings(db, { kind: "market" }, one);
  // The floor's walks sort by price, so they name the view's type themselves (a view sorted by stats is of spaceships).
  const cheapest = { ...viewQuery(one), sort: "price", order: "asc" } as const;
  const currencies = query.currency ? [query.currency] : CURRENCIES;
  const floors = await Promise.all(
    currencies.map(async (currency) => {
      const page = await queryListings(db, { kind: "market" }, { ...cheapest, currency });
      const first = page.records[0];
      return first?.price ? { currency, price: first.price, listed: page.total } : null;
    }),
  );
  return { floors: floors.filter((floor) => floor !== null), listed: { total: all.total, capped: all.totalCapped } };
}

/**
 * The same from the listed cells (shared/listed-cells.ts) for a view they keep: the counts per currency from a few cells,
 * capped as the listing query caps them, and only a currency with listings walks the price index for its floor.
 */
async function listedFromCells(
  db: Sql,
  query: ListingQuery,
  rollups: boolean,
): Promise<{ floors: Listed["floor"]; listed: Listed["listed"] } | null> {
  const rollup = rollupOf({ query }, rollups);
  if (!rollup) return null;
  const counts = await db.all<{ currency: Currency; listed: number }>(
    `select currency, sum(listed) as listed from market_listed_cells where ${rollup.where.join(" and ")} group by currency`,
    rollup.params,
  );
  const cheapest = { ...viewQuery(query), pageNumber: 1, pageSize: 1, sort: "price", order: "asc" } as const;
  const floors = await Promise.all(
    CURRENCIES.map(async (currency) => {
      const count = Number(counts.find((row) => row.currency === currency)?.listed ?? 0);
      if (count <= 0) return null;
      const sql = buildListingSql({ kind: "market" }, { ...cheapest, currency }, db.engine);
      const first = await db.get<{ price: string }>(sql.page, sql.pageParams);
      return first ? { currency, price: readWei(first.price).toString(), listed: capped(count).total } : null;
    }),
  );
  return { floors: floors.filter((floor) => floor !== null), listed: capped(counts.reduce((sum, row) => sum + Number(row.listed), 0)) };
}

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
 * leaves a window (shared/generation-cache.ts), so a view's numbers are computed once per change, not once per visit.
 */
export async function viewNumbers(db: Sql, query: ListingQuery, now: number): Promise<ViewNumbers> {
  const numbers = await byGeneration(db, `numbers ${viewKey({ query })}`, now, async () => {
    const value = await computeViewNumbers(db, query, now);
    return { value, until: earliest(value.changesAt ? Date.parse(value.changesAt) : null, await nextSaleAt(db, salesSql({ query }), now)) };
  });
  return { ...numbers, asOf: new Date(now).toISOString() };
}

/** The numbers computed afresh; `rollups: false` reads every sale raw (the tests' reference). */
export async function computeViewNumbers(db: Sql, query: ListingQuery, now: number, rollups = true): Promise<ViewNumbers> {
  const { floors, listed } = (await listedFromCells(db, query, rollups)) ?? (await listedFromListings(db, query));
  const tallies = await windowTallies(db, { query }, now, rollups);
  const windows = WINDOWS.map(({ window }, index) => ({
    window,
    sales: tallies[index].sales,
    volume: CURRENCIES.filter((c) => tallies[index].volume.has(c)).map(
      (c): CurrencyAmount => ({
        currency: c,
        amount: tallies[index].volume.get(c)!.toString(),
      }),
    ),
  }));
  const changesAt = earliest(...tallies.map((t) => t.leaves));
  const last = await lastSaleOf(db, { query }, now, rollups);
  return {
    floor: floors,
    listed,
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
    changesAt: changesAt === Infinity ? null : new Date(changesAt).toISOString(),
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

/** The history computed afresh; `rollups: false` as computeViewNumbers. */
export async function computeHistory(db: Sql, of: SalesOf, period: HistoryPeriod, now: number, rollups = true): Promise<PriceHistory> {
  const today = Math.floor(now / DAY);
  const fixed = period === "all" ? undefined : PERIOD_DAYS[period];
  const since = fixed ? today - fixed.days + 1 : undefined;
  const rollup = rollupOf(of, rollups);
  let rows: { day: number; currency: Currency; n: number; low: string; high: string }[];
  if (rollup) {
    rows = await db.all(
      `select day, currency, sales as n, low, high from market_sale_days where ${[...rollup.where, "day <= ?", ...(fixed ? ["day >= ?"] : [])].join(" and ")}`,
      [...rollup.params, today, ...(fixed ? [since] : [])],
    );
  } else {
    // Whole UTC days, today's too (as the rollups keep them).
    const sales = salesSql(of);
    const where = [...sales.where, "a.at < ?", ...(fixed ? ["a.at >= ?"] : [])];
    rows = await db.all(
      `select a.at / ${DAY} as day, a.currency as currency, count(*) as n, min(a.price) as low, max(a.price) as high
       from ${sales.from} where ${where.join(" and ")} group by a.at / ${DAY}, a.currency`,
      [...sales.params, (today + 1) * DAY, ...(fixed ? [since! * DAY] : [])],
    );
  }
  let firstDay = today;
  for (const row of rows) firstDay = Math.min(firstDay, Math.floor(Number(row.day)));
  const span = fixed ? fixed.days : today - firstDay + 1;
  const bucketDays = fixed ? fixed.bucketDays : Math.ceil(span / MAX_BUCKETS);
  const from = since ?? firstDay;
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
