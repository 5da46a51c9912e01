import Stripe from "stripe";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BackendError } from "~/services/http-client.server";
import { purchaseEvent, receivePaymentEvent, startCheckout, type CheckoutSessions } from "~/features/cards/card-checkout.server";
import type { StoreOrder } from "~core/api/sso";
import {
  CARD_MESSAGES,
  cardBoxes,
  formatCents,
  isExpiryInFuture,
  orderAmountCents,
  parseExpiry,
  passesLuhn,
  testCardRefusal,
} from "~core/card-payment";
import { DEV_PAYMENT_WEBHOOK_SECRET } from "~core/demo";

const ORDER: StoreOrder = {
  sessionId: "cs_test_abc",
  productId: "5",
  productName: "Premium loot box",
  quantity: 2,
  amountCents: 5998,
  currency: "usd",
  status: "delivered",
  createdAt: "2026-11-25T10:00:00.000Z",
  paidAt: "2026-11-25T10:01:00.000Z",
  deliveredAt: "2026-11-25T10:01:02.000Z",
  deliveryTx: `0x${"ab".repeat(32)}`,
};

function sso(answer: () => Promise<unknown> = async () => ({ outcome: "paid", order: { ...ORDER, status: "paid" } })) {
  return {
    createOrder: vi.fn(async (input: { typeBox: number; quantity: number; sessionId?: string }) => ({
      ...ORDER,
      status: "pending" as const,
      sessionId: input.sessionId ?? "cs_test_new",
    })),
    paymentEvent: vi.fn(answer),
  } as unknown as Parameters<typeof startCheckout>[0] & { createOrder: ReturnType<typeof vi.fn>; paymentEvent: ReturnType<typeof vi.fn> };
}

afterEach(() => vi.restoreAllMocks());

describe("the card rules", () => {
  it("checks card numbers with Luhn, expiry dates to the end of their month, and the test cards", () => {
    expect(passesLuhn("4242424242424242")).toBe(true);
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(parseExpiry("7/29")).toEqual({ month: 7, year: 2029 });
    expect(parseExpiry("13 / 29")).toBeNull();
    const now = new Date("2026-11-25T00:00:00Z");
    expect(isExpiryInFuture("11 / 26", now)).toBe(true);
    expect(isExpiryInFuture("10/26", now)).toBe(false);
    expect(testCardRefusal("4242 4242 4242 4242")).toBeNull();
    expect(testCardRefusal("4000-0000-0000-0002")).toBe(CARD_MESSAGES.declined);
    expect(testCardRefusal("4000000000009995")).toBe(CARD_MESSAGES.insufficientFunds);
    expect(testCardRefusal("5555555555554444")).toBe(CARD_MESSAGES.notTestCard);
  });

  it("prices orders in integer cents, only for boxes sold by card and 1 to 10 of them", () => {
    expect(cardBoxes().map((box) => [box.title, formatCents(box.cardPriceCents)])).toEqual([
      ["Premium loot box", "US$29.99"],
      ["Epic loot box", "US$59.99"],
      ["Standard loot box", "US$9.99"],
    ]);
    expect(orderAmountCents(4, 10)).toBe(9990);
    expect([orderAmountCents(4, 0), orderAmountCents(4, 11), orderAmountCents(4, 1.5), orderAmountCents(7, 1)]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(formatCents(123456)).toBe("US$1,234.56");
  });
});

describe("startCheckout", () => {
  it("sends the player to the test checkout when no Stripe key is set", async () => {
    const api = sso();
    expect(await startCheckout(api, { typeBox: 4, quantity: 2, email: "a@b.co" }, null)).toBe("/stripe/checkout?session_id=cs_test_new");
    expect(api.createOrder).toHaveBeenCalledWith({ typeBox: 4, quantity: 2 });
  });

  it("with Stripe, prices the Checkout Session from the catalogue, then records the order under its id", async () => {
    const api = sso();
    const create = vi.fn(async () => ({ id: "cs_live_123", url: "https://checkout.stripe.com/c/pay/cs_live_123" }));
    const url = await startCheckout(api, { typeBox: 5, quantity: 3, email: "a@b.co" }, { create } as unknown as CheckoutSessions);
    expect(url).toBe("https://checkout.stripe.com/c/pay/cs_live_123");
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({
        mode: "payment",
        customer_email: "a@b.co",
        line_items: [{ quantity: 3, price_data: { currency: "usd", unit_amount: 2999, product_data: { name: "Premium loot box" } } }],
        success_url: "http://localhost:3000/stripe/success?session_id={CHECKOUT_SESSION_ID}",
      }),
    );
    expect(api.createOrder).toHaveBeenCalledWith({ typeBox: 5, quantity: 3, sessionId: "cs_live_123" });
  });
});

describe("receivePaymentEvent", () => {
  const payload = JSON.stringify({ id: "evt_1", type: "checkout.session.completed", data: { object: { id: ORDER.sessionId } } });
  const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret: DEV_PAYMENT_WEBHOOK_SECRET });

  it("answers 400 to a forged or missing signature without asking the store", async () => {
    const api = sso();
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else_0123" });
    expect((await receivePaymentEvent(api, payload, forged)).status).toBe(400);
    expect((await receivePaymentEvent(api, payload, null)).status).toBe(400);
    expect((await receivePaymentEvent(api, payload.replace("evt_1", "evt_2"), signed)).status).toBe(400);
    expect(api.paymentEvent).not.toHaveBeenCalled();
  });

  it("reports the purchase once the store records the order paid, answers 200 at once, and reports no other outcome", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((line) => (lines.push(String(line)), true));
    expect(await receivePaymentEvent(sso(), payload, signed)).toEqual({ status: 200, body: { received: true, outcome: "paid" } });
    for (const outcome of ["duplicate", "ignored", "failed"]) {
      expect(
        await receivePaymentEvent(
          sso(async () => ({ outcome, order: ORDER })),
          payload,
          signed,
        ),
      ).toEqual({ status: 200, body: { received: true, outcome } });
    }
    const events = lines.filter((line) => line.includes('"analytics"')).map((line) => JSON.parse(line).analytics);
    expect(events).toEqual([{ ...purchaseEvent(ORDER), at: expect.any(String) }]);
    expect(purchaseEvent(ORDER)).toEqual({
      event: "purchase",
      value: "59.98",
      currency: "USD",
      transaction_id: "cs_test_abc",
      items: [{ item_id: "lootbox-5", item_name: "Premium loot box", item_category: "Loot box", price: "29.99", quantity: 2 }],
    });
  });

  it("asks the provider to retry when the store is down", async () => {
    const down = sso(async () => {
      throw new BackendError("Service unavailable", 503);
    });
    expect((await receivePaymentEvent(down, payload, signed)).status).toBe(503);
  });
});
