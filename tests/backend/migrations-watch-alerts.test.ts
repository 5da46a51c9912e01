/** market_027 / pg_0016 (issue 42): an account's alerts of one listing, one per watch before, merge into one alert. */
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrate } from "../../backend/db/migrate";
import { openPostgres } from "../../backend/db/postgres";
import { postgresMigrations } from "../../backend/schema";
import { marketMigrations } from "../../backend/market/migrations";
import { ssoMigrations } from "../../backend/sso/migrations";
import { TEST_ENGINE, freshDatabase } from "./engine";

const until = <M extends { name: string }>(list: readonly M[], first: string) =>
  list.slice(
    0,
    list.findIndex((m) => m.name === first),
  );

/** A database migrated up to the alerts' merge, and a way to finish. */
async function beforeMerge(): Promise<{ db: Kysely<unknown>; finish: () => Promise<unknown>; close: () => Promise<void> }> {
  if (TEST_ENGINE === "postgres") {
    const url = await freshDatabase();
    const pg = await openPostgres(url, until(postgresMigrations, "pg_0016_watch_alerts_per_listing"));
    const db = pg.db as Kysely<unknown>;
    return { db, finish: () => migrate(db, postgresMigrations), close: () => pg.close() };
  }
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
  await migrate(db, [...ssoMigrations, ...until(marketMigrations, "market_027_watch_alerts_per_listing")]);
  return { db, finish: () => migrate(db, [...ssoMigrations, ...marketMigrations]), close: () => db.destroy() };
}

describe("one alert per account and listing, from alerts per watch", () => {
  it("merges an account's alerts of a listing into its oldest, linked to each watch, read only when all were", async () => {
    const { db, finish, close } = await beforeMerge();
    try {
      for (const [id, user] of [
        [1, "a"],
        [2, "a"],
        [3, "b"],
      ] as const) {
        await sql`insert into market_watches (id, user_name, search, query, created_at) values (${id}, ${user}, '', '{}', 0)`.execute(db);
      }
      // Listing 10 matched both of a's watches (one alert read, one mailed) and b's; listing 11 only a's first.
      const alerts: [number, number, string, number, number | null, number | null][] = [
        [100, 1, "a", 10, 5, null],
        [101, 2, "a", 10, null, 7],
        [102, 3, "b", 10, null, null],
        [103, 1, "a", 11, 6, 8],
      ];
      for (const [id, watch, user, listing, read, emailed] of alerts) {
        await sql`insert into market_watch_alerts (id, watch_id, user_name, listing_id, nft_type, token_id, name, price, currency, created_at, read_at, emailed_at)
          values (${id}, ${watch}, ${user}, ${listing}, 0, '1', 'Hero #1', '1', 'FIRE', ${id}, ${read}, ${emailed})`.execute(db);
      }
      await finish();
      const { rows } = await sql<{ id: number; user_name: string; listing_id: number; read_at: number | null; emailed_at: number | null }>`
        select id, user_name, listing_id, read_at, emailed_at from market_watch_alerts order by id`.execute(db);
      expect(rows.map((row) => ({ ...row, id: Number(row.id), listing_id: Number(row.listing_id) }))).toEqual([
        { id: 100, user_name: "a", listing_id: 10, read_at: null, emailed_at: 7 },
        { id: 102, user_name: "b", listing_id: 10, read_at: null, emailed_at: null },
        { id: 103, user_name: "a", listing_id: 11, read_at: 6, emailed_at: 8 },
      ]);
      const links = await sql<{ alert_id: number; watch_id: number }>`
        select alert_id, watch_id from market_watch_alert_watches order by alert_id, watch_id`.execute(db);
      expect(links.rows.map((link) => [Number(link.alert_id), Number(link.watch_id)])).toEqual([
        [100, 1],
        [100, 2],
        [102, 3],
        [103, 1],
      ]);
      // An account and a listing are one alert now.
      await expect(
        sql`insert into market_watch_alerts (user_name, listing_id, nft_type, token_id, name, price, currency, created_at)
          values ('a', 10, 0, '1', 'Hero #1', '1', 'FIRE', 0)`.execute(db),
      ).rejects.toThrow();
    } finally {
      await close();
    }
  });
});
