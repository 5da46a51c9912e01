/**
 * The payment provider's webhook (Stripe, or the embedded store's test checkout): a signed JSON event, read as
 * the exact bytes that were signed. server/form-body.ts lets JSON through to this route only.
 */
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { publicApis } from "~/services/apis.server";
import { receivePaymentEvent } from "~/features/cards/card-checkout.server";

/** Stripe's events are a few KB; anything much bigger is not one. */
const MAX_EVENT_BYTES = 100_000;

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ received: false, error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const payload = await request.text();
  if (Buffer.byteLength(payload) > MAX_EVENT_BYTES) return json({ received: false, error: "The event is too large." }, { status: 413 });
  const answer = await receivePaymentEvent(publicApis().sso, payload, request.headers.get("stripe-signature"));
  return json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return json({ error: "The payment webhook takes POST only." }, { status: 405, headers: { Allow: "POST" } });
}
