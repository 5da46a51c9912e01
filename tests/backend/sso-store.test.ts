import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackends } from "../../backend";
import { DEMO_ORDER_SESSION_ID } from "../../backend/sso/seed";
import { CARD_MESSAGES } from "~core/card-payment";
import { testBackendOptions } from "./harness";
import { register, type Backend } from "./sso-helpers";
import { freshDatabase } from "./engine";
import { LEGENDARY, STANDARD, WEBHOOK_SECRET as SECRET, startCardStore, type CardStore } from "./sso-store-fixture";

let t: Backend;
let received: CardStore["received"];
let order: CardStore["order"];
let pay: CardStore["pay"];
let close: CardStore["close"];
beforeAll(async () => ({ t, received, order, pay, close } = await startCardStore()));
afterAll(() => close?.());

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
