import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { PAYMENT_EVENT_TOLERANCE_S, PaymentEventRefused, verifiedPaymentEvent } from "~core/payment-event";

const SECRET = "whsec_payment_event_test_0123";
const payload = JSON.stringify({ id: "evt_1", type: "checkout.session.completed", data: { object: {} } });
const NOW_MS = 1_790_000_000_000;
const nowS = NOW_MS / 1000;
const signedAt = (timestamp: number, secret = SECRET) => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

describe("verifiedPaymentEvent", () => {
  it("takes an event signed with the secret and stamped within the window, on either side of now", () => {
    for (const offset of [0, -PAYMENT_EVENT_TOLERANCE_S, PAYMENT_EVENT_TOLERANCE_S, -30, 30])
      expect(verifiedPaymentEvent(payload, signedAt(nowS + offset), SECRET, NOW_MS), String(offset)).toEqual(JSON.parse(payload));
  });

  it("refuses a stamp past the window in the past and, unlike Stripe's own check, in the future", () => {
    for (const offset of [-PAYMENT_EVENT_TOLERANCE_S - 1, PAYMENT_EVENT_TOLERANCE_S + 1, 3600])
      expect(() => verifiedPaymentEvent(payload, signedAt(nowS + offset), SECRET, NOW_MS), String(offset)).toThrow(PaymentEventRefused);
    // What this check adds: Stripe alone takes the event stamped an hour ahead.
    expect(Stripe.webhooks.constructEvent(payload, signedAt(nowS + 3600), SECRET, 300, undefined, NOW_MS)).toBeTruthy();
  });

  it("refuses a decoy stamp in front of the one that was signed", () => {
    const future = signedAt(nowS + 3600);
    expect(() => verifiedPaymentEvent(payload, `t=${nowS},${future}`, SECRET, NOW_MS)).toThrow(PaymentEventRefused);
  });

  it("refuses another secret's signature, an altered payload and a header without a stamp", () => {
    expect(() => verifiedPaymentEvent(payload, signedAt(nowS, "whsec_someone_else_0123"), SECRET, NOW_MS)).toThrow(PaymentEventRefused);
    expect(() => verifiedPaymentEvent(`${payload} `, signedAt(nowS), SECRET, NOW_MS)).toThrow(PaymentEventRefused);
    expect(() => verifiedPaymentEvent(payload, signedAt(nowS).replace(/t=\d+,/, ""), SECRET, NOW_MS)).toThrow(PaymentEventRefused);
  });
});
