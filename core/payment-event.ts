/**
 * The one check of a payment provider's event, for the app's webhook and the store backend alike: Stripe's
 * signature over the exact payload, stamped within PAYMENT_EVENT_TOLERANCE_S of now. Stripe's own check bounds only
 * the age of the stamp, so an event signed with a stamp an hour ahead would pass it for an hour and five minutes.
 */
import Stripe from "stripe";

/** Stripe's default window, applied to both sides of now. */
export const PAYMENT_EVENT_TOLERANCE_S = 300;

export class PaymentEventRefused extends Error {}

/**
 * Whether the signature's stamp (`t=` of the Stripe-Signature header, in seconds) is within the window around `nowMs`.
 * Every `t=` is checked: Stripe signs against the last one, so a first one alone could be a decoy.
 */
function stampedInWindow(signature: string, nowMs: number): boolean {
  const stamps = signature.split(",").flatMap((item) => {
    const [key, value] = item.split("=", 2);
    return key.trim() === "t" ? [Number(value)] : [];
  });
  return stamps.length > 0 && stamps.every((stamp) => Math.abs(nowMs / 1000 - stamp) <= PAYMENT_EVENT_TOLERANCE_S);
}

/** The event, when `signature` signs `payload` with `secret` within the window around `nowMs`; else throws PaymentEventRefused. */
export function verifiedPaymentEvent(payload: string, signature: string, secret: string, nowMs = Date.now()): unknown {
  if (!stampedInWindow(signature, nowMs)) throw new PaymentEventRefused("Timestamp outside the tolerance zone");
  try {
    return Stripe.webhooks.constructEvent(payload, signature, secret, PAYMENT_EVENT_TOLERANCE_S, undefined, nowMs);
  } catch (error) {
    throw new PaymentEventRefused((error as Error).message);
  }
}
