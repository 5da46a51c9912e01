/**
 * Per-UTC-day rollups of sales (decision 0022): count, volume, cheapest and dearest per currency, kept by the sold
 * listing's type, grade, camp and level at a few grains, so the history and the whole days of the windows of a
 * common view read a bounded number of rows (grain cells × days) however many sales the market has. Written in the
 * sale's transaction (recordActivity); a sale taken back (a reorg) rebuilds its day from the activity log. Each cell
 * is split by the sold listing's shard (shards.ts, decision 0034), so concurrent sales of listings of different shards
 * write different rows; readers sum (count, volume) or take the least and greatest (low, high) over a cell's shards.
 */
import { CompiledQuery, type Kysely } from "kysely";
import type { Engine } from "../../db/sql";
import { toNumberedPlaceholders } from "../../db/postgres";
import type { Sql } from "./db";
import { padWei, readWei } from "./money";
import { ACTIVITY_KIND } from "./tables";
import { shardOf } from "./shards";
import { weiSumSql } from "./wei-column";

export const DAY = 86_400_000;

/** The UTC day of a time, `YYYY-MM-DD`: the key of the daily volume and of the sale rollups' days. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export type FacetColumn = "nft_type" | "grade" | "camp" | "level";
export const FACET_COLUMNS: readonly FacetColumn[] = ["nft_type", "grade", "camp", "level"];

/**
 * The grains kept, coarsest first: each sale adds to one cell of each. A view is answered from the first grain that
 * holds every column it filters on (currency is in every cell).
 */
export const GRAINS: readonly (readonly FacetColumn[])[] = [
  [],
  ["nft_type"],
  ["nft_type", "grade"],
  ["nft_type", "camp"],
  ["nft_type", "camp", "level"],
  ["nft_type", "grade", "camp", "level"],
];

/** A sold listing's columns the cells are kept by. */
export type SaleFacets = Record<FacetColumn, number | null> & { currency: string };

/** Rollups per UTC day (history, a week's whole days) and per UTC hour (the windows' partial days, market_024). */
export interface SaleUnit {
  table: "market_sale_days" | "market_sale_hours";
  column: "day" | "hour";
  ms: number;
}
export const HOUR = 3_600_000;
export const SALE_DAYS: SaleUnit = { table: "market_sale_days", column: "day", ms: DAY };
export const SALE_HOURS: SaleUnit = { table: "market_sale_hours", column: "hour", ms: HOUR };
const SALE_UNITS = [SALE_DAYS, SALE_HOURS];

type Cell = Record<FacetColumn, number> & { grain: number; currency: string };

/** The sale's cell at each grain: a column the grain leaves out, or a null one, is -1 (no filter value is -1). */
function cellsOf(sale: SaleFacets): Cell[] {
  return GRAINS.map((grain, index) => ({
    grain: index,
    ...(Object.fromEntries(FACET_COLUMNS.map((column) => [column, grain.includes(column) ? (sale[column] ?? -1) : -1])) as Record<
      FacetColumn,
      number
    >),
    currency: sale.currency,
  }));
}

/** The upsert adding one sale to its cells of `unit`, by engine and unit: the text is the same for every sale. */
const addCellsSql = new Map<string, string>();
function addCellsStatement(engine: Engine, unit: SaleUnit): string {
  const id = `${engine}:${unit.table}`;
  let text = addCellsSql.get(id);
  if (text) return text;
  const key = `grain, nft_type, grade, camp, level, currency, ${unit.column}, shard`;
  const t = unit.table;
  text = `insert into ${t} (${key}, sales, volume, low, high) values ${GRAINS.map(() => `(${Array(12).fill("?").join(", ")})`).join(", ")}
    on conflict (${key}) do update set sales = ${t}.sales + excluded.sales, volume = ${weiSumSql(engine, `${t}.volume`, "excluded.volume")},
      low = case when excluded.low < ${t}.low then excluded.low else ${t}.low end,
      high = case when excluded.high > ${t}.high then excluded.high else ${t}.high end`;
  addCellsSql.set(id, text);
  return text;
}

/**
 * Adds one sale to its cells, each day's and hour's, in its listing's shard (inside the sale's transaction): one
 * statement per table, the grains' cells as the rows of one upsert that adds in SQL (weiSumSql), so no cell is read
 * first. `facets`, the sold listing's columns, when the caller has them from the sale's own statement (trades/trades.ts buy);
 * else they are read.
 */
export async function addSaleDay(db: Sql, listingId: number, price: bigint, at: number, facets?: SaleFacets): Promise<void> {
  const sale =
    facets ?? (await db.get<SaleFacets>("select nft_type, grade, camp, level, currency from market_listings where id = ?", [listingId]))!;
  const padded = padWei(price);
  const volume = price.toString();
  const shard = shardOf(listingId);
  const cells = cellsOf(sale);
  for (const unit of SALE_UNITS) {
    const time = Math.floor(at / unit.ms);
    await db.run(
      addCellsStatement(db.engine, unit),
      cells.flatMap((cell) => [
        cell.grain,
        cell.nft_type,
        cell.grade,
        cell.camp,
        cell.level,
        cell.currency,
        time,
        shard,
        1,
        volume,
        padded,
        padded,
      ]),
    );
  }
}

/**
 * Recomputes the cells of days `from`..`to` (UTC day numbers) from the activity log, in each of `units` (their
 * hours too), each sale in its listing's shard: the backfill, and a sale taken back. A migration names the units its
 * tables exist for, and `sharded: false` before the tables had shards (market_029 / pg_0019).
 */
export async function rebuildSaleDays(
  db: Sql,
  from: number,
  to: number,
  units: readonly SaleUnit[] = SALE_UNITS,
  sharded = true,
): Promise<void> {
  const rows = await db.all<SaleFacets & { price: string; at: number; listing_id: number }>(
    `select l.nft_type, l.grade, l.camp, l.level, l.currency, a.price, a.at, l.id as listing_id from market_activity a
     join market_listings l on l.id = a.listing_id where a.kind = ? and a.at >= ? and a.at < ?`,
    [ACTIVITY_KIND.sale, from * DAY, (to + 1) * DAY],
  );
  for (const unit of units) {
    await db.run(`delete from ${unit.table} where ${unit.column} >= ? and ${unit.column} < ?`, [
      (from * DAY) / unit.ms,
      ((to + 1) * DAY) / unit.ms,
    ]);
    const cells = new Map<string, { key: Cell; at: number; shard: number; sales: number; volume: bigint; low: bigint; high: bigint }>();
    for (const row of rows) {
      const price = readWei(row.price);
      const at = Math.floor(Number(row.at) / unit.ms);
      const shard = sharded ? shardOf(row.listing_id) : 0;
      for (const key of cellsOf(row)) {
        const id = JSON.stringify([key, at, shard]);
        const cell = cells.get(id);
        if (!cell) cells.set(id, { key, at, shard, sales: 1, volume: price, low: price, high: price });
        else
          Object.assign(cell, {
            sales: cell.sales + 1,
            volume: cell.volume + price,
            low: cell.low < price ? cell.low : price,
            high: cell.high > price ? cell.high : price,
          });
      }
    }
    for (const { key, at, shard, sales, volume, low, high } of cells.values()) {
      const values = [
        key.grain,
        key.nft_type,
        key.grade,
        key.camp,
        key.level,
        key.currency,
        at,
        sales,
        volume.toString(),
        padWei(low),
        padWei(high),
      ];
      await db.run(
        `insert into ${unit.table} (grain, nft_type, grade, camp, level, currency, ${unit.column}, sales, volume, low, high${sharded ? ", shard" : ""})
         values (${[...values, ...(sharded ? [shard] : [])].map(() => "?").join(", ")})`,
        sharded ? [...values, shard] : values,
      );
    }
  }
}

/**
 * A unit's table (market_020 / pg_0008 days, market_024 / pg_0012 hours); `text` is the engine's text type. Its shard
 * column (market_029 / pg_0019) is `shardedSaleDaysTable`'s.
 */
export function saleDaysTable(text: string, unit: SaleUnit = SALE_DAYS): string {
  return `create table ${unit.table} (
    grain integer not null,
    nft_type integer not null,
    grade integer not null,
    camp integer not null,
    level integer not null,
    currency ${text} not null,
    ${unit.column} integer not null,
    sales integer not null,
    volume ${text} not null,
    low ${text} not null,
    high ${text} not null,
    primary key (grain, nft_type, grade, camp, level, currency, ${unit.column})
  )`;
}

/**
 * A unit's table split by shard (market_029): the columns of `saleDaysTable`, then `shard`, last in the key too (a
 * reader's range over days still reads one run of the key per cell and currency). PostgreSQL adds the column in
 * place (pg_0019), the same table.
 */
export function shardedSaleDaysTable(unit: SaleUnit): string {
  return `create table ${unit.table} (
    grain integer not null,
    nft_type integer not null,
    grade integer not null,
    camp integer not null,
    level integer not null,
    currency text not null,
    ${unit.column} integer not null,
    sales integer not null,
    volume text not null,
    low text not null,
    high text not null,
    shard integer not null,
    primary key (grain, nft_type, grade, camp, level, currency, ${unit.column}, shard)
  ) without rowid`;
}

/** A migration's database as the market's `Sql` (`?` placeholders on both engines), so a backfill reuses the market's code. */
export function migrationSql(kysely: Kysely<unknown>, engine: Engine): Sql {
  const exec = async <T>(text: string, params: readonly unknown[] = []) =>
    await kysely.executeQuery<T>(CompiledQuery.raw(engine === "postgres" ? toNumberedPlaceholders(text) : text, [...params]));
  return {
    engine,
    all: async <T>(text: string, params?: readonly unknown[]) => (await exec<T>(text, params)).rows,
    get: async <T>(text: string, params?: readonly unknown[]) => (await exec<T>(text, params)).rows[0],
    run: async (text: string, params?: readonly unknown[]) => ({ changes: Number((await exec(text, params)).numAffectedRows ?? 0) }),
    // Migrations run alone (under the migration lock on PostgreSQL, on the one locked file on SQLite).
    lockSubject: async () => undefined,
  };
}

/**
 * Fills the rollups of `units` from the sales already logged, a week at a time (the migrations' backfill; `sharded:
 * false` in market_020 / market_024 and pg_0008 / pg_0012, before the tables had shards).
 */
export async function backfillSaleDays(kysely: Kysely<unknown>, engine: Engine, units: readonly SaleUnit[], sharded = true): Promise<void> {
  const db = migrationSql(kysely, engine);
  const span = await db.get<{ first: number | null; last: number | null }>(
    "select min(at) as first, max(at) as last from market_activity where kind = ?",
    [ACTIVITY_KIND.sale],
  );
  if (span?.first == null || span.last == null) return;
  const last = Math.floor(Number(span.last) / DAY);
  for (let day = Math.floor(Number(span.first) / DAY); day <= last; day += 7)
    await rebuildSaleDays(db, day, Math.min(day + 6, last), units, sharded);
}
