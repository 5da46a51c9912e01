import { setTimeout as sleep } from "node:timers/promises";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Migration } from "../../backend/db/migrate";
import { openPostgres, type PostgresDb, toNumberedPlaceholders } from "../../backend/db/postgres";
import { retryingTransaction } from "../../backend/db/sql";
import type { SqlRunner } from "../../backend/db/sql";
import { createTestDatabase } from "../support/postgres";

const tables: Migration[] = [
  {
    name: "test_001_tables",
    async up(db) {
      await sql`create table items (id integer generated always as identity primary key, name text not null, n bigint not null default 0)`.execute(
        db,
      );
      await sql`create table doctors (name text primary key, on_call boolean not null)`.execute(db);
      await sql`insert into doctors values ('alice', true), ('bob', true)`.execute(db);
    },
  },
];

const open: PostgresDb<unknown>[] = [];
async function store(url: string, migrations: readonly Migration[] = tables, poolSize?: number): Promise<PostgresDb<unknown>> {
  const opened = await openPostgres<unknown>(url, migrations, { poolSize });
  open.push(opened);
  return opened;
}
afterAll(() => Promise.all(open.map((opened) => opened.close())));

/** Lets two concurrent callers pass only once both have arrived: their reads are done before either writes. */
function barrier(parties: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === parties) release();
    return all;
  };
}

let db: PostgresDb<unknown>;
beforeAll(async () => {
  db = await store(await createTestDatabase());
});

describe("PgDriver", () => {
  it("turns ? into $1…$n outside single-quoted literals, and runs the same text as SQLite", async () => {
    expect(toNumberedPlaceholders("select ? as a, '?' as q, 'it''s ?' as r, ? as b")).toBe(
      "select $1 as a, '?' as q, 'it''s ?' as r, $2 as b",
    );
    const row = await db.sql.get("select ?::int as a, '?' as q, ?::text as b", [7, "x"]);
    expect(row).toEqual({ a: 7, q: "?", b: "x" });
  });

  it("prepares each text once per connection as a named statement", async () => {
    const single = await store(await createTestDatabase(), tables, 1);
    await single.sql.all("select name from doctors where on_call = ?", [true]);
    const statements = await single.sql.all<{ name: string; statement: string }>(
      "select name, statement from pg_prepared_statements where statement like ?",
      ["%from doctors where on_call = $1%"],
    );
    expect(statements).toHaveLength(1);
    expect(statements[0].name).toMatch(/^s_[0-9a-f]{24}$/);
  });

  it("reports the rows a write changed, and get gives the first row or undefined", async () => {
    const inserted = await db.sql.run("insert into items (name) values (?), (?), (?)", ["a", "b", "c"]);
    expect(inserted.changes).toBe(3);
    expect((await db.sql.run("update items set n = n + 1 where name in (?, ?)", ["a", "b"])).changes).toBe(2);
    expect((await db.sql.run("delete from items where name = ?", ["nobody"])).changes).toBe(0);
    expect(await db.sql.get("select name from items where name = ?", ["c"])).toEqual({ name: "c" });
    expect(await db.sql.get("select name from items where name = ?", ["nobody"])).toBeUndefined();
  });

  it("reads int8 as a number (and refuses one beyond 2^53), numeric as exact text", async () => {
    const row = await db.sql.get<{ ms: unknown; count: unknown; wei: unknown }>(
      "select 1795000000123::int8 as ms, count(*) as count, 115792089237316195423570985008687907853269984665640564039457584007913129639935::numeric(78, 0) as wei from doctors",
    );
    expect(row).toEqual({
      ms: 1795000000123,
      count: 2,
      wei: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
    });
    await expect(db.sql.get("select 9007199254740993::int8 as big")).rejects.toThrow(
      "int8 9007199254740993 is beyond JavaScript's safe integers",
    );
    // Kysely shares the pool, so it reads the same types.
    const { rows } = await sql<{ count: unknown }>`select count(*) as count from doctors`.execute(db.db);
    expect(rows[0].count).toBe(2);
  });

  it("commits a transaction's writes together, on its own connection", async () => {
    const result = await db.sql.transaction(async (tx) => {
      await tx.run("insert into items (name) values (?)", ["committed"]);
      expect(await tx.get("select name from items where name = ?", ["committed"])).toEqual({ name: "committed" });
      // Not yet visible on another connection (Kysely's, from the same pool; the driver itself refuses here).
      const outside = await sql<{ name: string }>`select name from items where name = ${"committed"}`.execute(db.db);
      expect(outside.rows).toEqual([]);
      return "done";
    });
    expect(result).toBe("done");
    expect(await db.sql.get("select name from items where name = ?", ["committed"])).toEqual({ name: "committed" });
  });

  it("rolls a failed transaction back and passes its error on, without retrying it", async () => {
    let tries = 0;
    const failing = db.sql.transaction(async (tx) => {
      tries++;
      await tx.run("insert into items (name) values (?)", ["rolled back"]);
      throw new Error("no, thanks");
    });
    await expect(failing).rejects.toThrow("no, thanks");
    expect(tries).toBe(1);
    expect(await db.sql.get("select name from items where name = ?", ["rolled back"])).toBeUndefined();
  });
});

describe("retries", () => {
  it("runs a transaction again after a real serialization failure (40001), and it then succeeds", async () => {
    const both = barrier(2);
    const tries = { alice: 0, bob: 0 };
    // Write skew: each doctor goes off call if both are on. Under SERIALIZABLE one of the two must fail.
    const goOffCall = (name: "alice" | "bob") =>
      db.sql.transaction(async (tx: SqlRunner) => {
        tries[name]++;
        await tx.run("set transaction isolation level serializable");
        const row = await tx.get<{ count: number }>("select count(*) as count from doctors where on_call");
        if (tries[name] === 1) await both();
        if (row!.count === 2) await tx.run("update doctors set on_call = false where name = ?", [name]);
        return row!.count;
      });
    const counts = await Promise.all([goOffCall("alice"), goOffCall("bob")]);
    expect(tries.alice + tries.bob).toBe(3);
    expect(counts.sort()).toEqual([1, 2]);
    expect(await db.sql.all("select name from doctors where on_call")).toHaveLength(1);
  });

  it("retries a real deadlock (40P01) in a Kysely transaction through retryingTransaction", async () => {
    await db.sql.run("insert into items (name) values ('left'), ('right')");
    const both = barrier(2);
    let tries = 0;
    const lockInOrder = (first: string, second: string) =>
      retryingTransaction(db.db as Kysely<unknown>, async (trx) => {
        const attempt = ++tries;
        await sql`set local deadlock_timeout = '50ms'`.execute(trx);
        await sql`update items set n = n + 1 where name = ${first}`.execute(trx);
        if (attempt <= 2) await both();
        await sql`update items set n = n + 1 where name = ${second}`.execute(trx);
      });
    await Promise.all([lockInOrder("left", "right"), lockInOrder("right", "left")]);
    expect(tries).toBe(3);
    const rows = await db.sql.all<{ n: number }>("select n from items where name in ('left', 'right')");
    expect(rows.map((row) => row.n)).toEqual([2, 2]);
  });

  it("gives up after 5 tries with a clear error naming the code", async () => {
    let tries = 0;
    const alwaysFails = db.sql.transaction(async (tx) => {
      tries++;
      await tx.run("do $$ begin raise exception 'conflict' using errcode = '40001'; end $$");
    });
    await expect(alwaysFails).rejects.toThrow("database busy: serialization failure (40001) after 5 tries");
    expect(tries).toBe(5);
  });
});

describe("openPostgres", () => {
  it("migrates once when two processes open the same empty database at once", async () => {
    const url = await createTestDatabase();
    const ran = new Map<string, number>();
    const slow = (name: string): Migration => ({
      name,
      async up(trx) {
        ran.set(name, (ran.get(name) ?? 0) + 1);
        await sql`select pg_sleep(0.2)`.execute(trx);
        await sql.raw(`create table ${name} (id integer primary key)`).execute(trx);
      },
    });
    const migrations = [slow("first"), slow("second")];
    const [a] = await Promise.all([store(url, migrations), store(url, migrations)]);
    expect([...ran.values()]).toEqual([1, 1]);
    const rows = await a.sql.all<{ name: string; applied_at: string }>("select name, applied_at from _migrations order by name");
    expect(rows.map((row) => row.name)).toEqual(["first", "second"]);
    expect(rows[0].applied_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("exclusively lets one holder of a name run at a time, across processes", async () => {
    const url = await createTestDatabase();
    const [a, b] = await Promise.all([store(url, []), store(url, [])]);
    const events: string[] = [];
    const hold = (opened: PostgresDb<unknown>, who: string) =>
      opened.exclusively("executor", async () => {
        events.push(`${who} in`);
        await sleep(150);
        events.push(`${who} out`);
        return who;
      });
    const results = await Promise.all([hold(a, "a"), hold(b, "b")]);
    expect(results).toEqual(["a", "b"]);
    expect(events).toHaveLength(4);
    for (let i = 0; i < 4; i += 2) expect(events[i + 1]).toBe(events[i].replace(" in", " out"));
  });
});
