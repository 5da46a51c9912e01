/**
 * Decision 0034's migrations (market_029 on SQLite, pg_0019 on PostgreSQL) split the counters a trade moves by the
 * listing's shard without changing a figure a reader sees: the listing generation's value carries into its slots'
 * sum (and moves on from there), the daily volume's and the sale rollups' rows carry into shard 0, and the listed
 * cells are counted again from the active listings, per shard.
 */
import SQLite from "better-sqlite3";
import pg from "pg";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrate, type Migration } from "../../backend/db/migrate";
import { postgresMigrations } from "../../backend/schema";
import { marketMigrations } from "../../backend/market/migrations";
import { GRAINS } from "../../backend/market/shared/sale-days";
import { shardOf } from "../../backend/market/shared/shards";
import { ssoMigrations } from "../../backend/sso/migrations";
import { createTestDatabase } from "../support/postgres";
import { TEST_ENGINE } from "./engine";

const before = (list: readonly Migration[], first: string) =>
  list.slice(
    0,
    list.findIndex((m) => m.name === first),
  );

const PRICE = "5".padStart(78, "0");

async function rows<T>(db: Kysely<unknown>, query: string): Promise<T[]> {
  return (await sql.raw<T>(query).execute(db)).rows.map(
    (row) => Object.fromEntries(Object.entries(row as object).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])) as T,
  );
}

/** Migrates to before `first`, plants counters and listings, migrates the rest; what a reader sees after. */
async function carried(db: Kysely<unknown>, all: readonly Migration[], first: string) {
  await migrate(db, before(all, first));
  for (let i = 1; i <= 3; i++) {
    await sql`insert into market_items (id, nft_type, token_id, owner_address, name, image, created_at, updated_at)
      values (${i}, 1, ${String(i)}, '0xa', 'n', 'i', 0, 0)`.execute(db);
    // Listings 1, 2 and 3 of items 1, 2 and 3; the first one sold.
    await sql`insert into market_listings (id, item_id, nft_type, token_id, seller_address, price, currency, status, listed_at)
      values (${i}, ${i}, 1, ${String(i)}, '0xa', ${PRICE}, 'ETH', ${i === 1 ? 1 : 0}, 0)`.execute(db);
  }
  await sql`update market_listing_generation set value = 1234`.execute(db);
  await sql`insert into market_daily_volume (day, nft_type, currency, volume, trades) values ('2020-01-02', 1, 'ETH', '5000', 2)`.execute(
    db,
  );
  for (const [table, column] of [
    ["market_sale_days", "day"],
    ["market_sale_hours", "hour"],
  ]) {
    await sql
      .raw(
        `insert into ${table} (grain, nft_type, grade, camp, level, currency, ${column}, sales, volume, low, high)
         values (0, -1, -1, -1, -1, 'ETH', 7, 2, '5000', '${PRICE}', '${PRICE}')`,
      )
      .execute(db);
  }
  await migrate(db, all);
  const generation = async () =>
    (await rows<{ value: number }>(db, "select cast(sum(value) as bigint) as value from market_listing_generation_slots"))[0].value;
  const carriedGeneration = Number(await generation());
  // A listing change after the migration moves the sum by one.
  await sql`update market_listings set status = 2 where id = 3`.execute(db);
  return {
    generation: [carriedGeneration, Number(await generation())],
    volume: await rows(db, "select day, nft_type, currency, volume, cast(trades as integer) as trades, shard from market_daily_volume"),
    days: await rows(db, "select grain, day, sales, volume, shard from market_sale_days"),
    hours: await rows(db, "select grain, hour, sales, volume, shard from market_sale_hours"),
    cells: await rows<{ grain: number; shard: number; listed: number }>(
      db,
      "select grain, shard, cast(sum(listed) as integer) as listed from market_listed_cells group by grain, shard having sum(listed) <> 0 order by grain, shard",
    ),
  };
}

const EXPECTED = {
  generation: [1234, 1235],
  volume: [{ day: "2020-01-02", nft_type: 1, currency: "ETH", volume: "5000", trades: 2, shard: 0 }],
  days: [{ grain: 0, day: 7, sales: 2, volume: "5000", shard: 0 }],
  hours: [{ grain: 0, hour: 7, sales: 2, volume: "5000", shard: 0 }],
  // Listing 2 is left active (3 was closed after the migration): one listing in its shard's cell at every grain.
  cells: GRAINS.map((_, grain) => ({ grain, shard: shardOf(2), listed: 1 })),
};

describe("decision 0034's migrations", () => {
  it.runIf(TEST_ENGINE === "sqlite")("market_029 keeps every counter's figure and splits it by shard", async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
    try {
      expect(await carried(db, [...ssoMigrations, ...marketMigrations], "market_029_counters_without_a_hot_row")).toEqual(EXPECTED);
    } finally {
      await db.destroy();
    }
  });

  it.runIf(TEST_ENGINE === "postgres")("pg_0019 keeps every counter's figure and splits it by shard", async () => {
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase() }) }),
    });
    try {
      expect(await carried(db, postgresMigrations, "pg_0019_counters_without_a_hot_row")).toEqual(EXPECTED);
    } finally {
      await db.destroy();
    }
  });
});
