/** The market's SQL driver, on whichever engine this project runs (tests/backend/engine.ts). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type BackendDb } from "../../backend/db";
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
});
