/**
 * Card checkout (product §2 /stripe/demo, docs/api/sso.md "Store"): with STRIPE_SECRET_KEY, a real Stripe
 * Checkout Session; without it, the embedded store's test checkout (/stripe/checkout). Either way the provider's
 * signed event reaches /stripe/webhook, which checks it and hands it to the store, the one fulfilment path.
 */
import Stripe from "stripe";
import type { PaymentEventResult, StoreOrder } from "~core/api/sso";
import { CARD_CURRENCY, findCardBox } from "~core/card-payment";
import { verifiedPaymentEvent } from "~core/payment-event";
import { emitAnalytics } from "~/services/analytics.server";
import { getEnv } from "~/services/env.server";
import { BackendError } from "~/services/http-client.server";
import type { ssoApi } from "~/services/sso.server";

type Sso = Pick<ReturnType<typeof ssoApi>, "createOrder" | "paymentEvent">;
/** The part of the Stripe SDK the checkout uses, so tests can stand in for it. */
export type CheckoutSessions = Pick<Stripe["checkout"]["sessions"], "create">;

let stripe: Stripe | undefined;
function stripeSessions(): CheckoutSessions | null {
  const key = getEnv().STRIPE_SECRET_KEY;
  if (!key) return null;
  stripe ??= new Stripe(key, { maxNetworkRetries: 2, timeout: 20_000 });
  return stripe.checkout.sessions;
}

/** Where the player pays for `quantity` boxes of `typeBox`: the provider's page, or the test checkout. */
export async function startCheckout(
  sso: Sso,
  order: { typeBox: number; quantity: number; email: string },
  sessions: CheckoutSessions | null = stripeSessions(),
): Promise<string> {
  if (!sessions) {
    const pending = await sso.createOrder({ typeBox: order.typeBox, quantity: order.quantity });
    return `/stripe/checkout?session_id=${encodeURIComponent(pending.sessionId)}`;
  }
  const box = findCardBox(order.typeBox);
  if (!box) throw new Error(`box ${order.typeBox} is not sold by card`);
  const { publicUrl } = getEnv();
  const session = await sessions.create({
    mode: "payment",
    customer_email: order.email,
    line_items: [
      {
        quantity: order.quantity,
        price_data: { currency: CARD_CURRENCY, unit_amount: box.cardPriceCents, product_data: { name: box.title } },
      },
    ],
    metadata: { typeBox: String(order.typeBox), quantity: String(order.quantity) },
    success_url: `${publicUrl}/stripe/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${publicUrl}/stripe/demo?box=${order.typeBox}&quantity=${order.quantity}`,
  });
  if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
  // The store prices the order itself; the event it later fulfils must have paid exactly that.
  await sso.createOrder({ typeBox: order.typeBox, quantity: order.quantity, sessionId: session.id });
  return session.url;
}

/** What /stripe/webhook answers the provider: 2xx stops its retries, anything else asks for one. */
export interface WebhookAnswer {
  status: number;
  body: { received: boolean; outcome?: string; error?: string };
}

/**
 * Whether an outcome is a purchase to report: `paid` comes once per order (the store records it with one conditional
 * update), when the payment is confirmed; the boxes follow in the background. Every other outcome changed nothing
 * that was bought, and each is answered 200 all the same so the provider stops retrying.
 */
function reportsPurchase(outcome: PaymentEventResult["outcome"]): boolean {
  switch (outcome) {
    case "paid":
      return true;
    case "duplicate":
    case "ignored":
    case "failed":
      return false;
    default: {
      // A new outcome fails the typecheck here; at run time an unknown one (another backend's) reports nothing.
      const unknown: never = outcome;
      void unknown;
      return false;
    }
  }
}

/**
 * A provider event: checked against the signing secret (a forged or altered one is a 400), then applied by the
 * store, which answers at once. The event that pays an order reports its purchase to analytics.
 */
export async function receivePaymentEvent(sso: Sso, payload: string, signature: string | null): Promise<WebhookAnswer> {
  try {
    verifiedPaymentEvent(payload, signature ?? "", getEnv().paymentWebhookSecret);
  } catch {
    return { status: 400, body: { received: false, error: "The event's signature does not match." } };
  }
  try {
    const { outcome, order } = await sso.paymentEvent({ payload, signature: signature ?? "" });
    if (reportsPurchase(outcome) && order) emitAnalytics(purchaseEvent(order));
    return { status: 200, body: { received: true, outcome } };
  } catch (error) {
    // A refusal stays refused; a store that is down gets the provider's retry.
    if (error instanceof BackendError && error.status < 500) return { status: 400, body: { received: false, error: error.message } };
    return {
      status: 503,
      body: { received: false, error: error instanceof BackendError ? error.message : "The store could not be reached." },
    };
  }
}

const dollars = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** product §7's purchase event for a paid card order. */
export function purchaseEvent(order: StoreOrder) {
  return {
    event: "purchase" as const,
    value: dollars(order.amountCents),
    currency: order.currency.toUpperCase(),
    transaction_id: order.sessionId,
    items: [
      {
        item_id: `lootbox-${order.productId}`,
        item_name: order.productName,
        item_category: "Loot box",
        price: dollars(Math.round(order.amountCents / order.quantity)),
        quantity: order.quantity,
      },
    ],
  };
}
