/** The market's SQL driver, on whichever engine this project runs (tests/backend/engine.ts). */
import { setTimeout as sleep } from "node:timers/promises";
import type { Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../backend/schema";
import type { BackendDb, Database } from "../../backend/types";
import { lockSubject, retryingTransaction, type SqlRunner } from "../../backend/db/sql";
import { freshDatabase, TEST_ENGINE } from "./engine";

let store: BackendDb;
beforeAll(async () => {
  store = await openDatabase(await freshDatabase());
});
afterAll(() => store?.close());

const sequence = async () =>
  (await store.sql.get<{ value: number }>("select value from market_sequences where name = 'claim_nonce'"))!.value;

describe(`the SQL driver on ${TEST_ENGINE}`, () => {
  it("commits a transaction's writes together, and rolls all of them back when it throws", async () => {
    const start = await sequence();
    await store.sql.transaction(async (tx) => {
      await tx.run("update market_sequences set value = value + 1 where name = 'claim_nonce'");
      await tx.run("update market_sequences set value = value + 1 where name = 'claim_nonce'");
    });
    expect(await sequence()).toBe(start + 2);
    await expect(
      store.sql.transaction(async (tx) => {
        await tx.run("update market_sequences set value = value + 1 where name = 'claim_nonce'");
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await sequence()).toBe(start + 2);
  });

  it("refuses at once a statement sent to the database from inside a transaction, rather than waiting or escaping it", async () => {
    const start = await sequence();
    await expect(
      store.sql.transaction(async (tx) => {
        await tx.run("update market_sequences set value = value + 1 where name = 'claim_nonce'");
        await store.sql.run("update market_sequences set value = value + 1 where name = 'claim_nonce'");
      }),
    ).rejects.toThrow("must run on the transaction's runner");
    expect(await sequence()).toBe(start);
  });

  it("counts the rows a statement changed, and returns what an insert returns", async () => {
    expect((await store.sql.run("update market_sequences set value = value where name = 'nothing'")).changes).toBe(0);
    const row = await store.sql.get<{ id: number }>(
      "insert into market_invite_codes (code, address, created_at) values ('DRIVER01', '0xd1', 1) on conflict do nothing returning code as id",
    );
    expect(row).toEqual({ id: "DRIVER01" });
    expect(
      await store.sql.get(
        "insert into market_invite_codes (code, address, created_at) values ('DRIVER01', '0xd2', 1) on conflict do nothing returning code",
      ),
    ).toBeUndefined();
  });

  describe("lockSubject (decision 0031)", () => {
    /** A transaction that holds `subject` for `holdMs`; when it got the lock and when it committed. */
    const holding = (lock: (tx: SqlRunner) => Promise<void>, holdMs: number, took: () => void = () => undefined) =>
      store.sql.transaction(async (tx) => {
        await lock(tx);
        const locked = Date.now();
        took();
        await sleep(holdMs);
        return { locked, done: Date.now() };
      });

    /** A transaction that locks `subject` and holds it `holdMs`, and once it has it a rival's that locks `rival`. */
    async function rivals(subject: string, holdMs: number, rival: string) {
      let first!: () => void;
      const firstLocked = new Promise<void>((resolve) => (first = resolve));
      const a = holding((tx) => tx.lockSubject(subject), holdMs, first);
      await firstLocked;
      const b = holding((tx) => tx.lockSubject(rival), 0);
      return Promise.all([a, b]);
    }

    it("holds a subject until the transaction ends: a rival on the same subject goes on only after the commit", async () => {
      const [held, waited] = await rivals("driver:same", 150, "driver:same");
      expect(waited.locked).toBeGreaterThanOrEqual(held.done);
    });

    it.runIf(TEST_ENGINE === "postgres")("lets transactions on different subjects run at once", async () => {
      const [held, other] = await rivals("driver:one", 300, "driver:other");
      expect(other.locked).toBeLessThan(held.done);
    });

    it("is refused outside a transaction, by the market's driver and by the SSO's Kysely", async () => {
      await expect(store.sql.lockSubject("driver:outside")).rejects.toThrow("needs a write transaction");
      await expect(lockSubject(store.db as unknown as Transaction<Database>, "driver:outside")).rejects.toThrow(
        "needs a write transaction",
      );
      await expect(retryingTransaction(store.db, (trx) => lockSubject(trx, "driver:inside"))).resolves.toBeUndefined();
    });
  });
});
