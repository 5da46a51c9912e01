/**
 * The two engines' schemas are the same (issue 26, item 3): a fresh SQLite database built by its migrations and a
 * fresh PostgreSQL database built by its baseline (backend/schema.ts) have the same tables, columns,
 * indexes, constraints, triggers and seed rows, by name, read as tests/backend/schema-shape.ts says.
 */
import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../backend/db/migrate";
import { postgresMigrations, openDatabase } from "../../backend/schema";
import { createTestDatabase } from "../support/postgres";
import { identitiesBehind, readPostgres } from "./schema-postgres";
import { RUNNER_TABLE, withoutRowid, type Schema } from "./schema-shape";
import { readSqlite } from "./schema-sqlite";

/** Every released PostgreSQL migration, in order: databases record these names, so none is renamed or moved. */
const RELEASED_POSTGRES_MIGRATIONS = [
  "pg_0001_baseline",
  "pg_0002_items_events",
  "pg_0003_chain_listings",
  "pg_0004_trading_step_kinds",
  "pg_0005_wallet_sign_in_nonces",
  "pg_0006_awards",
  "pg_0007_watches",
  "pg_0008_sale_days",
  "pg_0009_offers",
  "pg_0010_chain_offers",
  "pg_0012_offer_sales",
  "pg_0013_mutation_events",
  "pg_0014_role_fences",
  "pg_0015_stack_amounts_text",
  "pg_0016_watch_alerts_per_listing",
  "pg_0017_offer_page_generation",
  "pg_0018_display_names",
  "pg_0019_counters_without_a_hot_row",
  "pg_0020_gas_tank",
];

it("keeps the released PostgreSQL migrations' names and order (they are assembled from each backend's part)", () => {
  const names = postgresMigrations.map((m) => m.name);
  expect(names.slice(0, RELEASED_POSTGRES_MIGRATIONS.length)).toEqual(RELEASED_POSTGRES_MIGRATIONS);
});

describe("the PostgreSQL baseline and the SQLite migrations", () => {
  let sqlite: Schema;
  let postgres: Schema;
  let behind: string[];
  let pool: pg.Pool;
  let db: Kysely<unknown> | undefined;

  beforeAll(async () => {
    const store = await openDatabase(":memory:");
    try {
      sqlite = readSqlite(store.sqlite!);
    } finally {
      await store.close();
    }
    pool = new pg.Pool({ connectionString: await createTestDatabase() });
    // Destroying the Kysely ends the pool.
    db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    expect(await migrate(db, postgresMigrations)).toEqual(postgresMigrations.map((m) => m.name));
    postgres = await readPostgres(pool);
    behind = await identitiesBehind(pool);
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it("have the same tables", () => {
    expect(postgres.tables).toEqual(sqlite.tables);
  });

  it("have the same columns in each table: names, nullability, type family and defaults", () => {
    expect(postgres.columns).toEqual(sqlite.columns);
  });

  it("have the same primary keys, unique constraints, checks and foreign keys, by name", () => {
    expect(postgres.primaryKeys).toEqual(sqlite.primaryKeys);
    expect(postgres.uniques).toEqual(sqlite.uniques);
    expect(postgres.checks).toEqual(sqlite.checks);
    expect(postgres.foreignKeys).toEqual(sqlite.foreignKeys);
  });

  it("have the same indexes, by name: table, columns in order, unique and where clause", () => {
    expect(withoutRowid(postgres)).toEqual(withoutRowid(sqlite));
  });

  it("have the same triggers, by name", () => {
    expect(postgres.triggers).toEqual(sqlite.triggers);
  });

  it("seed the same rows, and identities start above them", () => {
    expect(postgres.rows).toEqual(sqlite.rows);
    expect(behind).toEqual([]);
  });

  it("compare text bytewise on PostgreSQL, as SQLite does (wei amounts, ISO times, addresses)", async () => {
    const { rows } = await pool.query<{ column: string }>(
      `select table_name || '.' || column_name as column from information_schema.columns
        where table_schema = 'public' and data_type = 'text' and table_name <> $1 and collation_name is distinct from 'C'`,
      [RUNNER_TABLE],
    );
    expect(rows.map((row) => row.column)).toEqual([]);
  });

  it("keep the generations by triggers on PostgreSQL: a listing change moves both, an item change only while listed", async () => {
    const generations = async () => {
      const { rows } = await pool.query<{ listing: string; page: string }>(
        `select (select sum(value) from market_listing_generation_slots) as listing,
                (select sum(value) from market_page_generation_slots) as page`,
      );
      return { listing: Number(rows[0].listing), page: Number(rows[0].page) };
    };
    const {
      rows: [item],
    } = await pool.query<{ id: string }>(
      `insert into market_items (nft_type, token_id, owner_address, name, image, created_at, updated_at)
       values (1, '1', '0xa', 'n', 'i', 1, 1) returning id`,
    );
    await pool.query("update market_items set views = views + 1 where id = $1", [item.id]);
    expect(await generations()).toEqual({ listing: 0, page: 0 });
    await pool.query(
      `insert into market_listings (item_id, nft_type, token_id, seller_address, price, currency, listed_at)
       values ($1, 1, '1', '0xa', lpad('5', 78, '0'), 'ETH', 1)`,
      [item.id],
    );
    expect(await generations()).toEqual({ listing: 1, page: 1 });
    // Views are not counted: the page generation moves, the listing generation does not.
    await pool.query("update market_listings set views = views + 1");
    await pool.query("update market_items set views = views + 1 where id = $1", [item.id]);
    expect(await generations()).toEqual({ listing: 1, page: 3 });
    // Each change bumps exactly one of the 8 slots, whichever random() picks.
    for (let i = 0; i < 50; i++) await pool.query("update market_listings set views = views + 1");
    expect(await generations()).toEqual({ listing: 1, page: 53 });
    await pool.query("update market_listings set status = 1");
    await pool.query("update market_items set views = views + 1 where id = $1", [item.id]);
    expect(await generations()).toEqual({ listing: 2, page: 54 });
  });
});
