/**
 * Decision 0035: the executor's write transactions asked for in one turn commit together on SQLite, each in its own
 * savepoint, and each caller still gets what its own transaction would give. On PostgreSQL each is its own transaction.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../backend/schema";
import type { BackendDb } from "../../backend/types";
import { groupCommit } from "../../backend/sso/executor/group-commit";
import { freshDatabase, TEST_ENGINE } from "./engine";

let handle: BackendDb;
beforeAll(async () => {
  handle = await openDatabase(await freshDatabase());
});
afterAll(() => handle.close());

const fenceOf = async (role: string) =>
  (await handle.db.selectFrom("role_fences").select("token").where("role", "=", role).executeTakeFirst())?.token ?? null;

describe("groupCommit", () => {
  it("commits the writes asked for at once, and a failing one rolls back alone, its error its caller's", async () => {
    const write = groupCommit(handle.db);
    const outcomes = await Promise.allSettled([
      write(async (trx) => {
        await trx.insertInto("role_fences").values({ role: "group-a", token: 1 }).execute();
        return "a";
      }),
      write(async (trx) => {
        await trx.insertInto("role_fences").values({ role: "group-b", token: 2 }).execute();
        throw new Error("b refused");
      }),
      write(async (trx) => {
        // On SQLite it sees the writes asked for before it, as the next transaction would. On PostgreSQL each write is
        // a transaction of its own, run side by side on the pool: it may run before the first has committed.
        const a = await trx.selectFrom("role_fences").select("token").where("role", "=", "group-a").executeTakeFirst();
        await trx
          .insertInto("role_fences")
          .values({ role: "group-c", token: (a?.token ?? 0) + 2 })
          .execute();
        return "c";
      }),
    ]);
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : (outcome.reason as Error).message))).toEqual([
      "a",
      "b refused",
      "c",
    ]);
    expect([await fenceOf("group-a"), await fenceOf("group-b")]).toEqual([1, null]);
    if (TEST_ENGINE === "sqlite") expect(await fenceOf("group-c")).toBe(3);
    else expect([2, 3]).toContain(await fenceOf("group-c"));
  });

  it("settles each caller only once its writes are committed, and groups what gathers while a commit runs", async () => {
    const write = groupCommit(handle.db);
    const first = write((trx) => trx.insertInto("role_fences").values({ role: "group-d", token: 4 }).execute());
    await first;
    // Read outside the group's transaction: committed.
    expect(await fenceOf("group-d")).toBe(4);
    const many = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        write(async (trx) => {
          await sql`insert into role_fences (role, token) values (${`group-many-${n}`}, ${n})`.execute(trx);
          return n;
        }),
      ),
    );
    expect(many).toEqual(Array.from({ length: 50 }, (_, n) => n));
    const rows = await handle.db.selectFrom("role_fences").select("role").where("role", "like", "group-many-%").execute();
    expect(rows).toHaveLength(50);
  });
});
