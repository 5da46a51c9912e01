import { describe, expect, it } from "vitest";
import { migratedBefore, migrateBefore } from "./sso-rules-fixture";

describe("the migration to card orders (sso_009)", () => {
  it("keeps every order, a canceled one as failed, and adds the delivery and the applied events", async () => {
    const { sqlite, kysely } = await migratedBefore("sso_009");
    const insert = sqlite.prepare(
      `insert into store_orders (session_id, product_id, product_name, quantity, amount_cents, currency, status, created_at, paid_at)
       values (?, 'lootbox-5', 'Premium loot box', 2, 1998, 'usd', ?, '2026-11-01T00:00:00.000Z', ?)`,
    );
    insert.run("cs_old_paid", "paid", "2026-11-01T00:01:00.000Z");
    insert.run("cs_old_canceled", "canceled", null);
    expect(await migrateBefore(kysely, "sso_010")).toEqual(["sso_009_card_orders"]);
    expect(sqlite.prepare("select session_id, status, delivering, delivery_tx from store_orders order by id").all()).toEqual([
      { session_id: "cs_old_paid", status: "paid", delivering: 0, delivery_tx: null },
      { session_id: "cs_old_canceled", status: "failed", delivering: 0, delivery_tx: null },
    ]);
    // Delivered always names its transaction.
    expect(() => sqlite.prepare("update store_orders set status = 'delivered' where session_id = 'cs_old_paid'").run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(sqlite.prepare("select count(*) as n from store_payment_events").get()).toEqual({ n: 0 });
    await kysely.destroy();
  });
});

describe("the migration that drops the delivering flag (sso_012)", () => {
  it("keeps every order and its claim, which delivering_token alone now holds", async () => {
    const { sqlite, kysely } = await migratedBefore("sso_012");
    sqlite
      .prepare(
        `insert into store_orders (session_id, product_id, product_name, quantity, amount_cents, currency, status, created_at,
           delivering, delivering_since, delivering_token)
         values ('cs_held', 'lootbox-5', 'Premium loot box', 1, 999, 'usd', 'paid', '2026-11-01T00:00:00.000Z', 1,
           '2026-11-01T00:01:00.000Z', 'token-1')`,
      )
      .run();
    expect(await migrateBefore(kysely, "sso_013")).toEqual(["sso_012_drop_delivering_flag"]);
    const columns = (sqlite.prepare("pragma table_info(store_orders)").all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain("delivering");
    expect(sqlite.prepare("select session_id, status, delivering_token from store_orders").all()).toEqual([
      { session_id: "cs_held", status: "paid", delivering_token: "token-1" },
    ]);
    await kysely.destroy();
  });
});
