/**
 * Card orders (docs/api/sso.md "Store"): taking an order, the test checkout that stands in for the provider when
 * none is configured, and the provider's events, which record an order paid and hand it to the delivery role
 * (store-fulfilment.ts), which mints its boxes exactly once.
 */
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import type { CreateOrderInput, PaymentEventResult, StoreOrder, TestCheckoutPayment } from "~core/api/sso";
import {
  CARD_MESSAGES,
  findCardBox,
  isCompleteCardNumber,
  isCvc,
  isExpiryInFuture,
  isValidCardNumber,
  orderAmountCents,
  parseExpiry,
  testCardRefusal,
} from "~core/card-payment";
import { verifiedPaymentEvent } from "~core/payment-event";
import { shortError } from "~core/rpc-errors";
import { ApiError } from "../../http";
import type { BackendPayments } from "../../types";
import type { Roles } from "../../db/roles";
import type { OrderRow, createCardOrders } from "./card-orders";

export const NOT_SOLD_BY_CARD = "This loot box is not sold by card.";
export const BAD_QUANTITY = "Choose between 1 and 10 boxes.";
export const NO_WALLET = "Please bind a wallet address";
export const BAD_SIGNATURE = "The event's signature does not match.";
export const NOT_PENDING = "This checkout is no longer open.";
/** Stripe's checkout sessions expire after 24 hours; so do ours. */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TEST_SESSION_PREFIX = "cs_test_";
/** How the test checkout retries our webhook, like the provider does (quicker). */
const WEBHOOK_RETRY_DELAYS_MS = [0, 1_000, 5_000, 15_000];

/** The part of a provider event we read: a checkout session and what it says was paid. */
interface CheckoutEvent {
  id: string;
  type: string;
  data: {
    object: {
      id?: string;
      object?: string;
      payment_status?: string;
      amount_total?: number | null;
      currency?: string | null;
      metadata?: Record<string, string> | null;
    };
  };
}

type Orders = ReturnType<typeof createCardOrders>;
type Log = (message: string) => void;

export function createStorePayments({
  orders,
  config,
  roles,
  log = (message) => console.error(message),
  fetchImpl = fetch,
}: {
  orders: Orders;
  config: BackendPayments;
  /** Where a paid order goes: the holder of the delivery role, in this process or another. */
  roles: Pick<Roles, "handOver">;
  log?: Log;
  fetchImpl?: typeof fetch;
}) {
  /** A pending order past the checkout's lifetime has failed; reading it says so. */
  async function current(row: OrderRow): Promise<OrderRow> {
    if (row.status !== "pending" || Date.now() - Date.parse(row.created_at) < CHECKOUT_LIFETIME_MS) return row;
    await orders.fail(row.session_id, "The checkout expired.");
    return (await orders.bySessionId(row.session_id)) ?? row;
  }

  async function orderDetail(sessionId: string): Promise<StoreOrder | null> {
    const row = await orders.bySessionId(sessionId);
    return row ? orders.detail(await current(row)) : null;
  }

  async function createOrder(user: { id: number; wallet: string | null }, input: CreateOrderInput): Promise<StoreOrder> {
    const box = findCardBox(input.typeBox);
    if (!box) throw new ApiError(400, NOT_SOLD_BY_CARD);
    if (orderAmountCents(input.typeBox, input.quantity) === null) throw new ApiError(400, BAD_QUANTITY);
    if (!user.wallet) throw new ApiError(403, NO_WALLET);
    // The test checkout names its own sessions; a provider's session id comes with the order.
    if (config.testCheckout === Boolean(input.sessionId)) {
      throw new ApiError(400, config.testCheckout ? "This store takes no provider's session id." : "A provider's session id is required.");
    }
    const sessionId = input.sessionId ?? `${TEST_SESSION_PREFIX}${randomBytes(18).toString("base64url").replace(/[-]/g, "_")}`;
    const row = await orders.create({ sessionId, userId: user.id, wallet: user.wallet, box, quantity: input.quantity });
    return orders.detail(row);
  }

  /** The test checkout's "Pay": checks the card as the provider would, then tells the app the way it would. */
  async function payTestCheckout(payment: TestCheckoutPayment): Promise<StoreOrder> {
    if (!config.testCheckout) throw new ApiError(404, "Not found");
    const row = await orders.bySessionId(payment.sessionId);
    if (!row || !row.session_id.startsWith(TEST_SESSION_PREFIX)) throw new ApiError(404, "No order exists for this checkout session");
    const order = await current(row);
    if (order.status !== "pending") throw new ApiError(409, NOT_PENDING);
    const problem = cardProblem(payment);
    if (problem) throw new ApiError(400, problem);
    const refusal = testCardRefusal(payment.cardNumber);
    if (refusal) throw new ApiError(402, refusal);
    const detail = orders.detail(order);
    void sendEvent(JSON.stringify(paidCheckoutEvent(detail)));
    return detail;
  }

  /** Posts a signed event to the app's webhook until it answers 2xx, as the provider does. */
  async function sendEvent(payload: string) {
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      try {
        const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: config.webhookSecret });
        const response = await fetchImpl(config.webhookUrl, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": signature },
          body: payload,
          signal: AbortSignal.timeout(30_000),
        });
        if (response.ok) return;
        log(`test checkout: the webhook answered ${response.status}`);
      } catch (error) {
        log(`test checkout: the webhook could not be reached: ${shortError(error)}`);
      }
    }
  }

  /**
   * A provider event, checked against the signing secret. A paid checkout records its order `paid` (one conditional
   * update, so one event among any number of copies does) and hands it to the delivery role, which mints the boxes in
   * the background (store-fulfilment.ts): the answer comes at once, so the provider stops retrying, and a retry of a
   * seen event is a duplicate that changes nothing.
   */
  async function applyEvent(payload: string, signature: string): Promise<PaymentEventResult> {
    let event: CheckoutEvent;
    try {
      event = verifiedPaymentEvent(payload, signature, config.webhookSecret) as CheckoutEvent;
    } catch {
      throw new ApiError(400, BAD_SIGNATURE);
    }
    const session = event.data?.object;
    const sessionId = session?.object === "checkout.session" && typeof session.id === "string" ? session.id : null;
    const row = sessionId ? await orders.bySessionId(sessionId) : null;
    const answer = async (outcome: PaymentEventResult["outcome"]): Promise<PaymentEventResult> => {
      const latest = sessionId ? await orders.bySessionId(sessionId) : null;
      return { outcome, order: latest ? orders.detail(latest) : null };
    };
    if (await orders.eventSeen(event.id)) return answer("duplicate");
    const paid =
      (event.type === "checkout.session.completed" && session.payment_status === "paid") ||
      event.type === "checkout.session.async_payment_succeeded";
    const failed = event.type === "checkout.session.expired" || event.type === "checkout.session.async_payment_failed";
    if (!row || (!paid && !failed)) {
      await orders.recordEvent({ id: event.id, type: event.type, sessionId });
      return answer("ignored");
    }
    if (failed) {
      await orders.fail(row.session_id, event.type === "checkout.session.expired" ? "The checkout expired." : "The payment failed.");
      await orders.recordEvent({ id: event.id, type: event.type, sessionId });
      return answer("failed");
    }
    // The goods too, not only the amount: a session of another checkout at the same price names other goods.
    const goods = session.metadata ?? {};
    if (
      session.amount_total !== row.amount_cents ||
      (session.currency ?? "").toLowerCase() !== row.currency ||
      goods.typeBox !== row.product_id ||
      goods.quantity !== String(row.quantity)
    ) {
      log(
        `store: event ${event.id} paid ${session.amount_total} ${session.currency} for order ${row.session_id} of ${row.amount_cents} ${row.currency}`,
      );
      await orders.paymentMismatch(
        row.session_id,
        `paid ${session.amount_total} ${session.currency} for ${JSON.stringify(goods)}, not this order`,
      );
      await orders.recordEvent({ id: event.id, type: event.type, sessionId });
      return answer("failed");
    }
    if (await orders.markPaid(row.session_id)) {
      await orders.recordEvent({ id: event.id, type: event.type, sessionId });
      // Stored first: the holder's rescan finds the order even if this hand-over is lost.
      await roles.handOver("delivery", row.session_id).catch((error: unknown) => log(`store: hand-over failed: ${shortError(error)}`));
      return answer("paid");
    }
    await orders.recordEvent({ id: event.id, type: event.type, sessionId });
    const latest = await orders.bySessionId(row.session_id);
    if (latest?.status === "failed") {
      // Paid after the checkout ended (it expired, or an earlier payment failed): nothing is delivered, the team refunds.
      log(`store: event ${event.id} paid order ${row.session_id}, which had failed; it is not delivered`);
      await orders.paymentMismatch(row.session_id, `paid by ${event.id} after the order failed`);
      return answer("failed");
    }
    // Another event paid it already (the provider sends more than one event for a checkout): nothing changes.
    return answer("duplicate");
  }

  return { orderDetail, createOrder, payTestCheckout, applyEvent };
}

/** The event the provider sends when `order`'s checkout is paid (the test checkout sends the same). */
export function paidCheckoutEvent(order: Pick<StoreOrder, "sessionId" | "amountCents" | "currency" | "productId" | "quantity">) {
  return {
    id: `evt_test_${randomBytes(12).toString("hex")}`,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: order.sessionId,
        object: "checkout.session",
        mode: "payment",
        status: "complete",
        payment_status: "paid",
        amount_total: order.amountCents,
        currency: order.currency,
        metadata: { typeBox: order.productId, quantity: String(order.quantity) },
      },
    },
  };
}

/** The card's first problem in the provider's words, or null: the test checkout's own check of what it is sent. */
export function cardProblem(payment: Pick<TestCheckoutPayment, "cardNumber" | "expiry" | "cvc">, now = new Date()): string | null {
  if (!isCompleteCardNumber(payment.cardNumber)) return CARD_MESSAGES.numberIncomplete;
  if (!isValidCardNumber(payment.cardNumber)) return CARD_MESSAGES.numberInvalid;
  if (!parseExpiry(payment.expiry)) return CARD_MESSAGES.expiryIncomplete;
  if (!isExpiryInFuture(payment.expiry, now)) return CARD_MESSAGES.expiryPast;
  if (!isCvc(payment.cvc)) return CARD_MESSAGES.cvcIncomplete;
  return null;
}
