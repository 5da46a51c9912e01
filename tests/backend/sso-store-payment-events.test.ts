import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openDatabase } from "../../backend/schema";
import { postgresRoles } from "../../backend/db/postgres-roles";
import { localRoles, type Roles } from "../../backend/db/roles";
import { createCardOrders } from "../../backend/sso/store/card-orders";
import { BAD_SIGNATURE, createStorePayments } from "../../backend/sso/store/store-payments";
import type { BoxDelivery, ForgeOutcome } from "../../backend/sso/store/store-delivery";
import { createDeliveryWorker } from "../../backend/sso/store/store-fulfilment";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import type { Backend } from "./sso-helpers";
import { freshDatabase, TEST_ENGINE } from "./engine";
import { STANDARD, WEBHOOK_SECRET as SECRET, startCardStore, type CardStore } from "./sso-store-fixture";

let t: Backend;
let order: CardStore["order"];
let close: CardStore["close"];
beforeAll(async () => ({ t, order, close } = await startCardStore()));
afterAll(() => close?.());

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
  const hashOf = (n: number) => `0x${String(n).padStart(64, "0")}` as `0x${string}`;

  /** Every delivery role a test started: stopped after it, and the paid orders it left are ended, so the next test's role finds none. */
  const started: Roles[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((roles) => roles.close()));
    await t.store.db.updateTable("store_orders").set({ status: "failed", delivering_token: null }).where("status", "=", "paid").execute();
  });

  type Outcome = ForgeOutcome | "timeout" | "hang";
  /**
   * The store over the backends' own database, and a delivery role of its own holding the role (in this process, as
   * on SQLite), whose minter counts the forges it signs (`mints`) and the ones it sends (`sent`, by hash): the first
   * `failSigns` signings fail (the node down), and the first outcomes can be scripted (a block that does not come in
   * time throws; `hang` never answers). `gate`, when given, holds every settle until it resolves.
   */
  async function store({
    failSigns = 0,
    outcomes = [] as Outcome[],
    minter = true,
    gate,
    roles = localRoles({ rescanMs: 50 }),
  }: { failSigns?: number; outcomes?: Outcome[]; minter?: boolean; gate?: Promise<void>; roles?: Roles } = {}) {
    const mints: { wallet: string; typeBox: number; quantity: number }[] = [];
    const sent: string[] = [];
    let failures = failSigns;
    const orders = createCardOrders(t.store.db);
    const delivery: BoxDelivery = {
      async sign(wallet, typeBox, quantity) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (failures-- > 0) throw new Error("node down");
        mints.push({ wallet, typeBox, quantity });
        const n = mints.length;
        return { hash: hashOf(n), raw: `0x${"ab".repeat(n)}`, nonce: n };
      },
      async settle(forge) {
        sent.push(forge.hash);
        await gate;
        const next = outcomes.shift() ?? "mined";
        if (next === "timeout") throw new Error("Timed out while waiting for the transaction");
        if (next === "hang") return new Promise<ForgeOutcome>(() => undefined);
        return next;
      },
      reserve: () => undefined,
      forget: () => undefined,
    };
    const worker = createDeliveryWorker({
      orders,
      delivery: minter ? delivery : null,
      roles,
      log: () => undefined,
      backoff: { firstMs: 100, maxMs: 400 },
    });
    const payments = createStorePayments({
      orders,
      config: { webhookSecret: SECRET, testCheckout: true, webhookUrl: "http://127.0.0.1:9/unused", minterKey: `0x${"11".repeat(32)}` },
      roles,
      log: () => undefined,
    });
    started.push(roles);
    await roles.run("delivery", worker.role);
    return { payments, mints, sent, orders, roles, worker };
  }
  const statusOf = async (sessionId: string) =>
    (await t.store.db.selectFrom("store_orders").selectAll().where("session_id", "=", sessionId).executeTakeFirst())!;

  it("answers a paid event at once with the order paid; the delivery role mints the boxes afterwards", async () => {
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { payments, mints, worker } = await store({ gate });
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 2 })).data;
    const payload = paidEvent("evt_at_once", sessionId, 1998);
    // The block does not come while the webhook waits: the answer does not wait for it.
    const answer = await Promise.race([
      payments.applyEvent(payload, sign(payload)),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 2_000)),
    ]);
    expect(answer).toMatchObject({ outcome: "paid", order: { sessionId, status: "paid", paidAt: expect.any(String), deliveryTx: null } });
    await expect.poll(() => mints.length).toBe(1);
    expect((await payments.orderDetail(sessionId))?.status).toBe("paid");
    open();
    await expect.poll(async () => (await payments.orderDetail(sessionId))?.status).toBe("delivered");
    await worker.idle();
    expect(await payments.orderDetail(sessionId)).toMatchObject({ deliveryTx: hashOf(1), deliveredAt: expect.any(String) });
    expect(mints).toEqual([{ wallet: DEMO_BROWSER_ACCOUNT.wallet, typeBox: STANDARD, quantity: 2 }]);
  });

  it("refuses a forged signature, and forges once for 5 copies of one event, some concurrent: one pays, the rest are duplicates", async () => {
    const { payments, mints, sent, worker } = await store();
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

    const concurrent = await Promise.all([1, 2, 3].map(() => payments.applyEvent(payload, sign(payload))));
    const later = [await payments.applyEvent(payload, sign(payload))];
    await worker.idle();
    later.push(await payments.applyEvent(payload, sign(payload)));
    const outcomes = [...concurrent, ...later].map((answer) => answer.outcome);
    expect(outcomes.filter((outcome) => outcome === "paid")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(4);
    await expect.poll(async () => (await payments.orderDetail(sessionId))?.status).toBe("delivered");
    // Another event of the same checkout changes nothing either.
    const other = paidEvent("evt_paid_other", sessionId, 1998);
    expect(await payments.applyEvent(other, sign(other))).toMatchObject({ outcome: "duplicate", order: { status: "delivered" } });
    await worker.idle();
    expect(mints).toEqual([{ wallet: DEMO_BROWSER_ACCOUNT.wallet, typeBox: STANDARD, quantity: 2 }]);
    expect(sent).toEqual([hashOf(1)]);
    expect(await payments.applyEvent(payload, sign(payload))).toMatchObject({
      outcome: "duplicate",
      order: { status: "delivered", deliveryTx: hashOf(1) },
    });
  });

  it("keeps a paid order whose delivery failed, with its error, and delivers it on a later try, after a pause", async () => {
    const { payments, mints, sent } = await store({ failSigns: 2 });
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_retry", sessionId, 999);
    const paidAt = Date.now();
    expect(await payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "paid" });
    await expect.poll(async () => (await statusOf(sessionId)).last_error).toBe("node down");
    expect((await statusOf(sessionId)).status).toBe("paid");
    await expect.poll(async () => (await statusOf(sessionId)).status, { timeout: 5_000 }).toBe("delivered");
    // Two failures: pauses of 100 then 200 ms, although the role rescans every 50 ms.
    expect(Date.now() - paidAt).toBeGreaterThanOrEqual(300);
    expect(await statusOf(sessionId)).toMatchObject({ last_error: null, delivery_tx: hashOf(1) });
    expect([mints.length, sent]).toEqual([1, [hashOf(1)]]);
  });

  it("keeps an order that cannot be delivered paid, its error visible, and tries it no more often than its backoff", async () => {
    const { payments } = await store({ minter: false });
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_no_chain", sessionId, 999);
    expect(await payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "paid" });
    await expect.poll(async () => (await statusOf(sessionId)).last_error).toBe("no chain is configured to deliver boxes");
    const claims = new Set<string>();
    const until = Date.now() + 1_000;
    while (Date.now() < until) {
      claims.add(String((await statusOf(sessionId)).delivering_since));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Every 50 ms would be 20 tries; the pauses (100, 200, 400, 400 ms) allow 4 or so.
    expect(claims.size).toBeLessThanOrEqual(5);
    expect(await payments.orderDetail(sessionId)).toMatchObject({ status: "paid", deliveryTx: null });
  });

  it("sends the same forge again when its block did not come in time, never a second one", async () => {
    const { payments, mints, sent } = await store({ outcomes: ["timeout"] });
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_slow_block", sessionId, 999);
    expect(await payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "paid" });
    await expect.poll(async () => (await statusOf(sessionId)).status).toBe("delivered");
    expect((await statusOf(sessionId)).delivery_tx).toBe(hashOf(1));
    expect(mints).toHaveLength(1);
    expect(sent).toEqual([hashOf(1), hashOf(1)]);
  });

  it("signs anew only a forge that reverted or lost its nonce", async () => {
    const reverted = await store({ outcomes: ["reverted"] });
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_reverted", sessionId, 999);
    expect(await reverted.payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "paid" });
    await expect.poll(async () => (await statusOf(sessionId)).delivery_tx).toBe(hashOf(2));
    expect(reverted.mints).toHaveLength(2);
    await reverted.roles.close();

    const dropped = await store({ outcomes: ["dropped"] });
    const other = (await order({ typeBox: STANDARD, quantity: 1 })).data.sessionId;
    const event = paidEvent("evt_dropped", other, 999);
    expect(await dropped.payments.applyEvent(event, sign(event))).toMatchObject({ outcome: "paid" });
    await expect.poll(async () => (await statusOf(other)).status).toBe("delivered");
    expect(dropped.mints).toHaveLength(2);
  });

  it("a holder that stops mid-delivery lets go at once, and the next holder sends the forge it stored, not a new one", async () => {
    const first = await store({ outcomes: ["hang"] });
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_handover", sessionId, 999);
    expect(await first.payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "paid" });
    // Signed, stored, sent, and waiting for a block that does not come.
    await expect.poll(() => first.sent).toEqual([hashOf(1)]);
    const stopping = Date.now();
    await first.roles.close();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(await statusOf(sessionId)).toMatchObject({ status: "paid", delivering_token: null });
    expect(JSON.parse((await statusOf(sessionId)).delivery_forge!)).toMatchObject({ hash: hashOf(1), nonce: 1 });

    const next = await store();
    await expect.poll(async () => (await statusOf(sessionId)).status).toBe("delivered");
    expect((await statusOf(sessionId)).delivery_tx).toBe(hashOf(1));
    expect(next.sent).toEqual([hashOf(1)]);
    expect(next.mints).toEqual([]);
    expect(first.mints).toHaveLength(1);
  });

  it("a holder that died holding a delivery: the next takes the claim over at once and sends the forge it stored", async () => {
    const orders = createCardOrders(t.store.db);
    const sessionId = (await order({ typeBox: STANDARD, quantity: 1 })).data.sessionId;
    // The dead process was paid, claimed the order and stored its signed forge, then died before sending it.
    expect(await orders.markPaid(sessionId)).toBe(true);
    const dead = (await orders.claimDelivery(sessionId))!;
    const forge = { hash: hashOf(77), raw: "0xdead" as `0x${string}`, nonce: 77 };
    expect(await orders.deliveryForge(sessionId, dead, forge)).toBe(true);

    const { sent, mints } = await store();
    await expect.poll(async () => (await statusOf(sessionId)).status).toBe("delivered");
    expect((await statusOf(sessionId)).delivery_tx).toBe(hashOf(77));
    expect(sent).toEqual([hashOf(77)]);
    expect(mints).toEqual([]);
    // The dead process, had it lived on, could no longer write: its claim is not the order's.
    expect(await orders.deliveryForge(sessionId, dead, null)).toBe(false);
  });

  it("signs nothing once the role is lost: the order stays paid and unclaimed for the next holder", async () => {
    const lost: Roles = { ...localRoles(), confirm: () => Promise.resolve(false) };
    const { payments, mints } = await store({ roles: lost });
    const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
    const payload = paidEvent("evt_lost_role", sessionId, 999);
    expect(await payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "paid" });
    await expect.poll(async () => (await statusOf(sessionId)).delivering_since).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mints).toEqual([]);
    expect(await statusOf(sessionId)).toMatchObject({ status: "paid", delivering_token: null, delivery_forge: null });
  });

  it.runIf(TEST_ENGINE === "postgres")(
    "on PostgreSQL, a webhook in a process without the role hands the order to the holder, and a new holder takes over",
    async () => {
      // Two processes' leases on one database; rescans too rare to matter, so only the hand-over (NOTIFY) delivers.
      const url = await freshDatabase();
      // Migrated: taking a role writes its fencing token (role_fences).
      await (await openDatabase(url)).close();
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const lease = () => postgresRoles({ connectionString: url }, pool, { retryMs: 100, rescanMs: 60_000, log: () => undefined });
      try {
        const holder = await store({ roles: lease() });
        const other = await store({ roles: lease() });
        expect([holder.roles.holds("delivery"), other.roles.holds("delivery")]).toEqual([true, false]);
        const { sessionId } = (await order({ typeBox: STANDARD, quantity: 1 })).data;
        const payload = paidEvent("evt_notify", sessionId, 999);
        expect(await other.payments.applyEvent(payload, sign(payload))).toMatchObject({ outcome: "paid" });
        await expect.poll(async () => (await statusOf(sessionId)).status).toBe("delivered");
        expect([holder.mints.length, other.mints.length]).toEqual([1, 0]);

        await holder.roles.close();
        await expect.poll(() => other.roles.holds("delivery")).toBe(true);
        const next = (await order({ typeBox: STANDARD, quantity: 1 })).data.sessionId;
        const event = paidEvent("evt_notify_next", next, 999);
        expect(await holder.payments.applyEvent(event, sign(event))).toMatchObject({ outcome: "paid" });
        await expect.poll(async () => (await statusOf(next)).status).toBe("delivered");
        expect([holder.mints.length, other.mints.length]).toEqual([1, 1]);
      } finally {
        await Promise.all(started.splice(0).map((roles) => roles.close()));
        await pool.end();
      }
    },
  );

  it("does not deliver an event that paid another amount, ends an expired checkout, and delivers nothing paid after it failed", async () => {
    const { payments, mints } = await store();
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
    const tooLate = paidEvent("evt_paid_too_late", sessionId, 999);
    expect(await payments.applyEvent(tooLate, sign(tooLate))).toMatchObject({ outcome: "failed", order: { status: "failed" } });
    expect((await statusOf(sessionId)).last_error).toMatch(/after the order failed/);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(mints).toEqual([]);
  });
});
