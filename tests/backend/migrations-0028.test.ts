/**
 * Decision 0028's migrations carry a stack's amount over: an integer becomes the same digits as text, on the engine
 * this project runs (market_026 on SQLite, pg_0015 on PostgreSQL), and the column then holds 2^256 - 1 exactly.
 */
import SQLite from "better-sqlite3";
import pg from "pg";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrate, type Migration } from "../../backend/db/migrate";
import { postgresMigrations } from "../../backend/schema";
import { marketMigrations } from "../../backend/market/migrations";
import { ssoMigrations } from "../../backend/sso/migrations";
import { createTestDatabase } from "../support/postgres";
import { TEST_ENGINE } from "./engine";

const UINT256_MAX = (2n ** 256n - 1n).toString();

/** The list up to (not with) migration `first`. */
function before(list: readonly Migration[], first: string): Migration[] {
  return list.slice(
    0,
    list.findIndex((m) => m.name === first),
  );
}

/** Migrates to before `first`, plants a stack of 40 and a piece, migrates the rest: the amounts as read after. */
async function carried(db: Kysely<unknown>, all: readonly Migration[], first: string) {
  await migrate(db, before(all, first));
  await sql`insert into market_items (nft_type, token_id, owner_address, name, image, amount, created_at, updated_at)
    values (8, '1000000001', '0xA', 'Silver ×40', 'i', 40, 0, 0)`.execute(db);
  await sql`insert into market_items (nft_type, token_id, owner_address, name, image, created_at, updated_at)
    values (0, '7', '0xA', 'Card', 'i', 0, 0)`.execute(db);
  await migrate(db, all);
  await sql`insert into market_items (nft_type, token_id, owner_address, name, image, amount, created_at, updated_at)
    values (8, '1000000002', '0xA', 'Gold', 'i', ${UINT256_MAX}, 0, 0)`.execute(db);
  const { rows } = await sql<{ token_id: string; amount: unknown }>`select token_id, amount from market_items order by token_id`.execute(
    db,
  );
  return rows;
}

const EXPECTED = [
  { token_id: "1000000001", amount: "40" },
  { token_id: "1000000002", amount: UINT256_MAX },
  { token_id: "7", amount: "1" },
];

describe("decision 0028's migrations", () => {
  it.runIf(TEST_ENGINE === "sqlite")("market_026 keeps a stack's amount as text, digit for digit", async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
    try {
      expect(await carried(db, [...ssoMigrations, ...marketMigrations], "market_026_stack_amounts_text")).toEqual(EXPECTED);
    } finally {
      await db.destroy();
    }
  });

  it.runIf(TEST_ENGINE === "postgres")("pg_0015 keeps a stack's amount as text, digit for digit", async () => {
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase() }) }),
    });
    try {
      expect(await carried(db, postgresMigrations, "pg_0015_stack_amounts_text")).toEqual(EXPECTED);
    } finally {
      await db.destroy();
    }
  });
});
