/** Decision 0010's migrations carry existing data over: claim nonces, the page generation and counted requests. */
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { migrate } from "../../backend/db/migrate";
import { marketMigrations } from "../../backend/market/migrations";
import { ssoMigrations } from "../../backend/sso/migrations";

/** The schema as decision 0010 found it: each list up to its first migration of that decision. */
function before<M extends { name: string }>(list: M[], first: string): M[] {
  return list.slice(
    0,
    list.findIndex((m) => m.name === first),
  );
}

describe("decision 0010's migrations", () => {
  it("start the claim nonce past the claims issued, keep the page generation and number counted requests into slots", async () => {
    const sqlite = new SQLite(":memory:");
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      const all = [...ssoMigrations, ...marketMigrations];
      await migrate(db, [...before(ssoMigrations, "sso_015_action_rate_slots"), ...before(marketMigrations, "market_014_sequences")]);
      sqlite
        .prepare(
          `insert into market_claims (id, account, kind, asset, id_or_amount, deadline, chain_id, asset_manager, claim_content, signature, status, created_at, updated_at)
           values (41, 'a', 0, 'x', '1', 0, 1, 'm', '0x', '0x', 0, 0, 0)`,
        )
        .run();
      sqlite.prepare("update market_page_generation set value = 1234 where id = 1").run();
      sqlite
        .prepare("insert into users (id, email, password_hash, created_at) values (7, 'u@test', 'x', '2026-01-01T00:00:00.000Z')")
        .run();
      for (const at of ["2026-01-01T00:00:01.000Z", "2026-01-01T00:00:03.000Z", "2026-01-01T00:00:02.000Z"]) {
        sqlite.prepare("insert into action_rate (user_id, at) values (7, ?)").run(at);
      }

      await migrate(db, all);
      expect(sqlite.prepare("update market_sequences set value = value + 1 where name = 'claim_nonce' returning value").get()).toEqual({
        value: 42,
      });
      expect(sqlite.prepare("select sum(value) as value from market_page_generation_slots").get()).toEqual({ value: 1234 });
      expect(sqlite.prepare("select slot, at from action_rate where user_id = 7 order by slot").all()).toEqual([
        { slot: 0, at: "2026-01-01T00:00:03.000Z" },
        { slot: 1, at: "2026-01-01T00:00:02.000Z" },
        { slot: 2, at: "2026-01-01T00:00:01.000Z" },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
