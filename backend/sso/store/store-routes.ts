import { ApiError, handle, parseInput, sendOk } from "../../http";
import express from "express";
import type { SsoCore } from "../core";
import { createOrderInput, orderDetailInput, paymentEventInput, testCheckoutInput } from "../shared/schemas";
import { requireSession } from "../accounts";
import type { createStorePayments } from "./store-payments";

/**
 * Card-payment orders (docs/api/sso.md "Store"). Like Stripe's success_url, the checkout session id is the
 * capability: whoever holds it may read the order (and, in the test checkout, pay it), so those calls need no
 * token and the answers name no buyer. Provider events prove themselves by their signature.
 */
export function storeRoutes(core: SsoCore, payments: ReturnType<typeof createStorePayments> | null) {
  const router = express.Router();
  const readOnly = async (sessionId: string) => {
    const row = await core.cardOrders.bySessionId(sessionId);
    return row && core.cardOrders.detail(row);
  };
  const taking = () => {
    if (!payments) throw new ApiError(503, "This store takes no card orders.");
    return payments;
  };

  router.post(
    "/store/getOrderDetail",
    handle(async (req, res) => {
      const { sessionId } = parseInput(orderDetailInput, req.body);
      const order = payments ? await payments.orderDetail(sessionId) : await readOnly(sessionId);
      if (!order) throw new ApiError(404, "No order exists for this checkout session");
      sendOk(res, order);
    }),
  );

  router.post(
    "/store/createOrder",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      const input = parseInput(createOrderInput, req.body);
      sendOk(res, await taking().createOrder({ id: user.id, wallet: user.wallet_address }, input));
    }),
  );

  router.post(
    "/store/testCheckout/pay",
    handle(async (req, res) => {
      sendOk(res, await taking().payTestCheckout(parseInput(testCheckoutInput, req.body)));
    }),
  );

  router.post(
    "/store/paymentEvent",
    handle(async (req, res) => {
      const { payload, signature } = parseInput(paymentEventInput, req.body);
      sendOk(res, await taking().applyEvent(payload, signature));
    }),
  );

  return router;
}
