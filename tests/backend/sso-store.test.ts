import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackends } from "../../backend";
import { migrate } from "../../backend/db/migrate";
import { ssoMigrations } from "../../backend/sso/migrations";
import { createCardOrders, DELIVERY_CLAIM_TTL_MS } from "../../backend/sso/card-orders";
import { DEMO_ORDER_SESSION_ID } from "../../backend/sso/seed";
import { BAD_SIGNATURE, createStorePayments, DELIVERY_UNDER_WAY } from "../../backend/sso/store-payments";
import type { ForgeOutcome } from "../../backend/sso/store-delivery";
import type { StoreOrder } from "~core/api/sso";
import { CARD_MESSAGES } from "~core/card-payment";
import { DEMO_BROWSER_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { startTestBackends, testBackendOptions } from "./harness";
import { login, register, type Backend } from "./sso-helpers";
import { freshDatabase } from "./engine";

const SECRET = "whsec_test_store_0123456789";
const STANDARD = 4;
const LEGENDARY = 7;

/** Our webhook as the test checkout sees it: every event it is sent, with its signature header. */
const received: { payload: string; signature: string }[] = [];
let webhook: http.Server;
let t: Backend;
let demoToken: string;

beforeAll(async () => {
  webhook = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ payload: body, signature: String(req.headers["stripe-signature"]) });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
  const webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/stripe/webhook`;
  t = await startTestBackends({ payments: { webhookSecret: SECRET, testCheckout: true, webhookUrl, minterKey: `0x${"11".repeat(32)}` } });
  demoToken = (await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD)).token;
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => webhook?.close(resolve));
});

const order = (body: unknown, token = demoToken) => t.call<StoreOrder>("POST", "/store/createOrder", body, token);
const pay = (sessionId: string, cardNumber: string, rest: Partial<{ expiry: string; cvc: string }> = {}) =>
  t.call<StoreOrder>("POST", "/store/testCheckout/pay", { sessionId, cardNumber, expiry: "12 / 34", cvc: "123", ...rest });

describe("POST /store/getOrderDetail", () => {
  it("returns the seeded order, waiting for payment, by its checkout session id and without a token", async () => {
    const answer = await t.call("POST", "/store/getOrderDetail", { sessionId: DEMO_ORDER_SESSION_ID });
    expect(answer).toMatchObject({ status: 200, success: true });
    expect(answer.data).toEqual({
      sessionId: "cs_test_demo",
      productId: String(STANDARD),
      productName: "Standard loot box",
      quantity: 1,
      amountCents: 999,
      currency: "usd",
      status: "pending",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      paidAt: null,
      deliveredAt: null,
      deliveryTx: null,
    });
  });

  it("answers 404 for an unknown session and 400 for a malformed one", async () => {
    const unknown = await t.call("POST", "/store/getOrderDetail", { sessionId: "cs_test_nothing_here" });
    expect(unknown).toMatchObject({ status: 404, msg: "No order exists for this checkout session" });
    for (const sessionId of ["", "pi_123", "cs_' or 1=1 --", 42, undefined]) {
      const bad = await t.call("POST", "/store/getOrderDetail", { sessionId });
      expect(bad.status).toBe(400);
      expect(bad.msg).toMatch(/^sessionId: /);
    }
  });
});

describe("POST /store/createOrder", () => {
  it("takes a pending order of boxes sold by card, priced in cents from the catalogue", async () => {
    const answer = await order({ typeBox: STANDARD, quantity: 2 });
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data).toMatchObject({
      productName: "Standard loot box",
      quantity: 2,
      amountCents: 1998,
      currency: "usd",
      status: "pending",
    });
    expect(answer.data.sessionId).toMatch(/^cs_test_[A-Za-z0-9_]{20,}$/);
  });

  it("refuses a visitor, an account without a wallet, a box not sold by card, a bad quantity and a provider's session id", async () => {
    expect((await order({ typeBox: STANDARD, quantity: 1 }, "")).status).toBe(401);
    const walletless = await register(t, "no-wallet-buyer@sparkera.test");
    expect(await order({ typeBox: STANDARD, quantity: 1 }, walletless.token)).toMatchObject({
      status: 403,
      msg: "Please bind a wallet address",
    });
    expect(await order({ typeBox: LEGENDARY, quantity: 1 })).toMatchObject({ status: 400, msg: "This loot box is not sold by card." });
    for (const quantity of [0, 11]) expect((await order({ typeBox: STANDARD, quantity })).status).toBe(400);
    expect((await order({ typeBox: STANDARD, quantity: 1, sessionId: "cs_live_abc" })).status).toBe(400);
  });
});

describe("POST /store/testCheckout/pay", () => {
  it("checks the card, refuses the provider's declined test cards, and sends our webhook a signed event for 4242", async () => {
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 2 })).data;
    expect(await pay(sessionId, "4242 4242 4242 4241")).toMatchObject({ status: 400, msg: CARD_MESSAGES.numberInvalid });
    expect(await pay(sessionId, "4242 4242")).toMatchObject({ status: 400, msg: CARD_MESSAGES.numberIncomplete });
    expect(await pay(sessionId, "4242424242424242", { expiry: "01 / 20" })).toMatchObject({ status: 400, msg: CARD_MESSAGES.expiryPast });
    expect(await pay(sessionId, "4242424242424242", { cvc: "1" })).toMatchObject({ status: 400, msg: CARD_MESSAGES.cvcIncomplete });
    expect(await pay(sessionId, "4000 0000 0000 0002")).toMatchObject({ status: 402, msg: "Your card was declined." });
    expect(await pay(sessionId, "4000 0000 0000 9995")).toMatchObject({ status: 402, msg: "Your card has insufficient funds." });
    expect(received).toHaveLength(0);

    expect((await pay(sessionId, "4242 4242 4242 4242")).status).toBe(200);
    await expect.poll(() => received.length).toBe(1);
    const event = Stripe.webhooks.constructEvent(received[0].payload, received[0].signature, SECRET) as unknown as {
      type: string;
      data: { object: { id: string; payment_status: string; amount_total: number; currency: string } };
    };
    expect(event.type).toBe("checkout.session.completed");
    expect(event.data.object).toMatchObject({ id: sessionId, payment_status: "paid", amount_total: 1998, currency: "usd" });
  });

  it("answers 404 for an order it did not open", async () => {
    expect((await pay("cs_live_someone_elses", "4242424242424242")).status).toBe(404);
  });
});

describe("payment events", () => {
  const sign = (payload: string, secret = SECRET) => Stripe.webhooks.generateTestHeaderString({ payload, secret });
  /** A paid checkout of Standard boxes (the tests' orders), as the provider reports it. */
  const paidEvent = (
    id: string,
    sessionId: string,
    amount: number,
    metadata = { typeBox: String(STANDARD), quantity: String(amount === 1998 ? 2 : 1) },
  ) =>
    JSON.stringify({
      id,
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: { id: sessionId, object: "checkout.session", payment_status: "paid", amount_total: amount, currency: "usd", metadata },
      },
    });

  /**
   * The store over the backends' own database, with a delivery that counts the forges it signs (`mints`) and the
   * ones it sends (`sent`, by hash): the first signing can fail (the node down), and the first outcomes can be
   * scripted (a block that does not come in time throws).
   */
  function store(failFirst = false, outcomes: (ForgeOutcome | "timeout")[] = []) {
    const mints: { wallet: string; typeBox: number; quantity: number }[] = [];
    const sent: string[] = [];
    let failures = failFirst ? 1 : 0;
    const orders = createCardOrders(t.store.db);
    const payments = createStorePayments({
      orders,
      config: { webhookSecret: SECRET, testCheckout: true, webhookUrl: "http://127.0.0.1:9/unused", minterKey: `0x${"11".repeat(32)}` },
      delivery: {
        async sign(wallet, typeBox, quantity) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (failures-- > 0) throw new Error("node down");
          mints.push({ wallet, typeBox, quantity });
          const n = mints.length;
          return { hash: hashOf(n), raw: `0x${"ab".repeat(n)}`, nonce: n };
        },
        async settle(forge) {
          sent.push(forge.hash);
          const next = outcomes.shift() ?? "mined";
          if (next === "timeout") throw new Error("Timed out while waiting for the transaction");
          return next;
        },
        forget: () => undefined,
      },
      log: () => undefined,
    });
    return { payments, mints, sent, orders };
  }
  const hashOf = (n: number) => `0x${String(n).padStart(64, "0")}` as `0x${string}`;

  it("refuses a forged signature, and delivers a paid order once however often and however concurrently it is told", async () => {
    const { payments, mints } = store();
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 2 })).data;
    const payload = paidEvent("evt_paid_1", sessionId, 1998);
    await expect(payments.applyEvent(payload, sign(payload, "whsec_forged_0123456789"))).rejects.toMatchObject({
      status: 400,
      message: BAD_SIGNATURE,
    });
    await expect(payments.applyEvent(payload.replace("1998", "1"), sign(payload))).rejects.toMatchObject({ status: 400 });
    // Signed with the right secret, but stamped an hour ahead: held back for replay later.
    const ahead = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) + 3600 });
    await expect(payments.applyEvent(payload, ahead)).rejects.toMatchObject({ status: 400, message: BAD_SIGNATURE });

    const answers = await Promise.allSettled([
      payments.applyEvent(payload, sign(payload)),
      payments.applyEvent(payload, sign(payload)),
      ...[2, 3, 4].map((n) => {
        const other = paidEvent(`evt_paid_${n}`, sessionId, 1998);
        return payments.applyEvent(other, sign(other));
      }),
    ]);
    // One delivers; the others are asked to come again while it does (503), or told it is done.
    const outcomes = answers.map((answer) =>
      answer.status === "fulfilled" ? answer.value.outcome : (answer.reason as { status: number; message: string }),
    );
    expect(outcomes.filter((outcome) => outcome === "delivered")).toHaveLength(1);
    for (const outcome of outcomes.filter((outcome) => outcome !== "delivered")) {
      expect([{ status: 503, message: DELIVERY_UNDER_WAY }, "duplicate"]).toContainEqual(
        typeof outcome === "string" ? outcome : { status: outcome.status, message: outcome.message },
      );
    }
    expect(mints).toEqual([{ wallet: DEMO_BROWSER_ACCOUNT.wallet, typeBox: STANDARD, quantity: 2 }]);
    const replay = await payments.applyEvent(payload, sign(payload));
    expect(replay).toMatchObject({ outcome: "duplicate", order: { status: "delivered", deliveryTx: hashOf(1) } });
    const late = paidEvent("evt_paid_5", sessionId, 1998);
    expect(await payments.applyEvent(late, sign(late))).toMatchObject({ outcome: "duplicate" });
    expect(mints).toHaveLength(1);
  });

  it("keeps a paid order whose delivery failed, and delivers it when the provider retries the event", async () => {
    const { payments, mints } = store(true);
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_retry", sessionId, 999);
    await expect(payments.applyEvent(payload, sign(payload))).rejects.toMatchObject({ status: 503 });
    expect((await payments.orderDetail(sessionId))?.status).toBe("paid");
    expect(await payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "delivered", order: { status: "delivered" } });
    expect(mints).toHaveLength(1);
  });

  it("sends the same forge again when its block did not come in time, never a second one", async () => {
    const { payments, mints, sent } = store(false, ["timeout"]);
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_slow_block", sessionId, 999);
    await expect(payments.applyEvent(payload, sign(payload))).rejects.toMatchObject({ status: 503 });
    expect(await payments.applyEvent(payload, sign(payload))).toMatchObject({
      outcome: "delivered",
      order: { status: "delivered", deliveryTx: hashOf(1) },
    });
    expect(mints).toHaveLength(1);
    expect(sent).toEqual([hashOf(1), hashOf(1)]);
  });

  it("signs anew only a forge that reverted or lost its nonce", async () => {
    const { payments, mints } = store(false, ["reverted"]);
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_reverted", sessionId, 999);
    await expect(payments.applyEvent(payload, sign(payload))).rejects.toMatchObject({ status: 503 });
    expect(await payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "delivered", order: { deliveryTx: hashOf(2) } });
    expect(mints).toHaveLength(2);

    const dropped = store(false, ["dropped"]);
    const other = (await order({ typeBox: STANDARD, quantity: 1 })).data.sessionId;
    const event = paidEvent("evt_dropped", other, 999);
    await expect(dropped.payments.applyEvent(event, sign(event))).rejects.toMatchObject({ status: 503 });
    expect(await dropped.payments.applyEvent(event, sign(event))).toMatchObject({ outcome: "delivered" });
    expect(dropped.mints).toHaveLength(2);
  });

  it("after a process died holding a delivery: waits out its claim, then sends the forge it stored and never signs another", async () => {
    const { payments, mints, sent, orders } = store();
    const sessionId = (await order({ typeBox: STANDARD, quantity: 1 })).data.sessionId;
    // The dead process claimed the order and stored its signed forge, then died before sending it.
    const dead = (await orders.claimDelivery(sessionId))!;
    const forge = { hash: hashOf(77), raw: "0xdead" as `0x${string}`, nonce: 77 };
    expect(await orders.deliveryForge(sessionId, dead, forge)).toBe(true);

    const event = paidEvent("evt_after_crash", sessionId, 999);
    await expect(payments.applyEvent(event, sign(event))).rejects.toMatchObject({ status: 503, message: DELIVERY_UNDER_WAY });
    const since = (ms: number) =>
      t.store.db
        .updateTable("store_orders")
        .set({ delivering_since: new Date(ms).toISOString() })
        .where("session_id", "=", sessionId)
        .execute();
    await since(Date.now() - DELIVERY_CLAIM_TTL_MS - 1000);
    expect(await payments.applyEvent(event, sign(event))).toMatchObject({ outcome: "delivered", order: { deliveryTx: hashOf(77) } });
    expect(sent).toEqual([hashOf(77)]);
    expect(mints).toEqual([]);
    // The dead process, had it lived on, could no longer write: its claim is not the order's.
    expect(await orders.deliveryForge(sessionId, dead, null)).toBe(false);
  });

  it("does not deliver an event that paid another amount, and ends an expired checkout", async () => {
    const { payments, mints } = store();
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const underpaid = paidEvent("evt_underpaid", sessionId, 1);
    expect(await payments.applyEvent(underpaid, sign(underpaid))).toMatchObject({ outcome: "failed", order: { status: "pending" } });
    // The right amount for other goods (a session of another checkout, bound to this order by its id): not these boxes.
    for (const metadata of [{ typeBox: "5", quantity: "1" }, { typeBox: String(STANDARD), quantity: "2" }, {}]) {
      const other = paidEvent(`evt_other_${JSON.stringify(metadata)}`, sessionId, 999, metadata as { typeBox: string; quantity: string });
      expect(await payments.applyEvent(other, sign(other))).toMatchObject({ outcome: "failed", order: { status: "pending" } });
    }
    const expired = JSON.stringify({
      id: "evt_expired",
      type: "checkout.session.expired",
      data: { object: { id: sessionId, object: "checkout.session" } },
    });
    expect(await payments.applyEvent(expired, sign(expired))).toMatchObject({ outcome: "failed", order: { status: "failed" } });
    expect(mints).toEqual([]);
  });
});

/** An in-memory database with the SSO migrations that come before `name`, to watch that one run on old rows. */
async function migratedBefore(name: string) {
  const sqlite = new SQLite(":memory:");
  sqlite.pragma("foreign_keys = ON");
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(
    kysely,
    ssoMigrations.filter((m) => m.name < name),
  );
  return { sqlite, kysely };
}

describe("the migration to card orders (sso_009)", () => {
  it("keeps every order, a canceled one as failed, and adds the delivery and the applied events", async () => {
    const { sqlite, kysely } = await migratedBefore("sso_009");
    const insert = sqlite.prepare(
      `insert into store_orders (session_id, product_id, product_name, quantity, amount_cents, currency, status, created_at, paid_at)
       values (?, 'lootbox-5', 'Premium loot box', 2, 1998, 'usd', ?, '2026-11-01T00:00:00.000Z', ?)`,
    );
    insert.run("cs_old_paid", "paid", "2026-11-01T00:01:00.000Z");
    insert.run("cs_old_canceled", "canceled", null);
    expect(
      await migrate(
        kysely,
        ssoMigrations.filter((m) => m.name < "sso_010"),
      ),
    ).toEqual(["sso_009_card_orders"]);
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

describe("seed", () => {
  it("creates the three demo accounts", async () => {
    const users = await t.store.db.selectFrom("users").select(["email", "bind_addr_type"]).orderBy("id").limit(3).execute();
    expect(users).toEqual([
      { email: "demo@sparkera.test", bind_addr_type: 1 },
      { email: "managed@sparkera.test", bind_addr_type: 2 },
      { email: "buyer@sparkera.test", bind_addr_type: 2 },
    ]);
  });

  it("runs once: a restart over the same file migrates nothing new and keeps the data", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-sso-restart-"));
    const file = await freshDatabase(dir, "restart");
    try {
      const first = await startBackends(file, testBackendOptions);
      await first.close();
      const second = await startBackends(file, testBackendOptions);
      const users = await second.store.db.selectFrom("users").select("id").execute();
      const orders = await second.store.db.selectFrom("store_orders").select("id").execute();
      await second.close();
      expect([users.length, orders.length]).toEqual([3, 1]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
    expect(
      await migrate(
        kysely,
        ssoMigrations.filter((m) => m.name < "sso_013"),
      ),
    ).toEqual(["sso_012_drop_delivering_flag"]);
    const columns = (sqlite.prepare("pragma table_info(store_orders)").all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain("delivering");
    expect(sqlite.prepare("select session_id, status, delivering_token from store_orders").all()).toEqual([
      { session_id: "cs_held", status: "paid", delivering_token: "token-1" },
    ]);
    await kysely.destroy();
  });
});
