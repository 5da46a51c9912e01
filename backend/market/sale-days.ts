/**
 * Per-UTC-day rollups of sales (decision 0022): count, volume, cheapest and dearest per currency, kept by the sold
 * listing's type, grade, camp and level at a few grains, so the history and the whole days of the windows of a
 * common view read a bounded number of rows (grain cells × days) however many sales the market has. Written in the
 * sale's transaction (recordActivity); a sale taken back (a reorg) rebuilds its day from the activity log.
 */
import { CompiledQuery, type Kysely } from "kysely";
import type { Engine } from "../db/sql";
import { toNumberedPlaceholders } from "../db/postgres";
import type { Sql } from "./db";
import { padWei, readWei } from "./money";
import { ACTIVITY_KIND } from "./tables";
import { addToWei } from "./wei-column";

export const DAY = 86_400_000;

export type FacetColumn = "nft_type" | "grade" | "camp" | "level";
const FACET_COLUMNS: readonly FacetColumn[] = ["nft_type", "grade", "camp", "level"];

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

type Cell = Record<FacetColumn, number> & { grain: number; currency: string; day: number };

/** The sale's cell at each grain: a column the grain leaves out, or a null one, is -1 (no filter value is -1). */
function cellsOf(sale: SaleFacets, day: number): Cell[] {
  return GRAINS.map((grain, index) => ({
    grain: index,
    ...(Object.fromEntries(FACET_COLUMNS.map((column) => [column, grain.includes(column) ? (sale[column] ?? -1) : -1])) as Record<
      FacetColumn,
      number
    >),
    currency: sale.currency,
    day,
  }));
}

/** Adds one sale to its cells (inside the sale's transaction). */
export async function addSaleDay(db: Sql, listingId: number, price: bigint, at: number): Promise<void> {
  const sale = (await db.get<SaleFacets>("select nft_type, grade, camp, level, currency from market_listings where id = ?", [listingId]))!;
  const padded = padWei(price);
  for (const key of cellsOf(sale, Math.floor(at / DAY))) {
    await addToWei(
      db,
      {
        table: "market_sale_days",
        column: "volume",
        key,
        fresh: { sales: 1, low: padded, high: padded },
        alsoSet: "sales = sales + 1, low = case when ? < low then ? else low end, high = case when ? > high then ? else high end",
        alsoParams: [padded, padded, padded, padded],
      },
      price,
    );
  }
}

/** Recomputes the cells of days `from`..`to` (UTC day numbers) from the activity log: the backfill, and a sale taken back. */
export async function rebuildSaleDays(db: Sql, from: number, to: number): Promise<void> {
  await db.run("delete from market_sale_days where day >= ? and day <= ?", [from, to]);
  const rows = await db.all<SaleFacets & { price: string; at: number }>(
    `select l.nft_type, l.grade, l.camp, l.level, l.currency, a.price, a.at from market_activity a
     join market_listings l on l.id = a.listing_id where a.kind = ? and a.at >= ? and a.at < ?`,
    [ACTIVITY_KIND.sale, from * DAY, (to + 1) * DAY],
  );
  const cells = new Map<string, { key: Cell; sales: number; volume: bigint; low: bigint; high: bigint }>();
  for (const row of rows) {
    const price = readWei(row.price);
    for (const key of cellsOf(row, Math.floor(Number(row.at) / DAY))) {
      const id = JSON.stringify(key);
      const cell = cells.get(id);
      if (!cell) cells.set(id, { key, sales: 1, volume: price, low: price, high: price });
      else
        Object.assign(cell, {
          sales: cell.sales + 1,
          volume: cell.volume + price,
          low: cell.low < price ? cell.low : price,
          high: cell.high > price ? cell.high : price,
        });
    }
  }
  for (const { key, sales, volume, low, high } of cells.values()) {
    await db.run(
      `insert into market_sale_days (grain, nft_type, grade, camp, level, currency, day, sales, volume, low, high)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [key.grain, key.nft_type, key.grade, key.camp, key.level, key.currency, key.day, sales, volume.toString(), padWei(low), padWei(high)],
    );
  }
}

/** The table (market_020 / pg_0008); `text` is the engine's text type. */
export function saleDaysTable(text: string): string {
  return `create table market_sale_days (
    grain integer not null,
    nft_type integer not null,
    grade integer not null,
    camp integer not null,
    level integer not null,
    currency ${text} not null,
    day integer not null,
    sales integer not null,
    volume ${text} not null,
    low ${text} not null,
    high ${text} not null,
    primary key (grain, nft_type, grade, camp, level, currency, day)
  )`;
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
  };
}

/** Fills the rollups from the sales already logged, a week at a time (the migrations' backfill). */
export async function backfillSaleDays(kysely: Kysely<unknown>, engine: Engine): Promise<void> {
  const db = migrationSql(kysely, engine);
  const span = await db.get<{ first: number | null; last: number | null }>(
    "select min(at) as first, max(at) as last from market_activity where kind = ?",
    [ACTIVITY_KIND.sale],
  );
  if (span?.first == null || span.last == null) return;
  const last = Math.floor(Number(span.last) / DAY);
  for (let day = Math.floor(Number(span.first) / DAY); day <= last; day += 7) await rebuildSaleDays(db, day, Math.min(day + 6, last));
}
