import { ApiError, handle, parseInput, sendOk } from "../http";
import express from "express";
import type { SsoCore } from "./core";
import { orderDetailInput } from "./schemas";

/**
 * Card-payment orders. Like Stripe's success_url, the checkout session id is the capability: whoever
 * holds it may read the order, so no token is needed and the answer names no buyer.
 */
export function storeRoutes(core: SsoCore) {
  const router = express.Router();

  router.post(
    "/store/getOrderDetail",
    handle(async (req, res) => {
      const { sessionId } = parseInput(orderDetailInput, req.body);
      const order = await core.orders.bySessionId(sessionId);
      if (!order) throw new ApiError(404, "No order exists for this checkout session");
      sendOk(res, order);
    }),
  );

  return router;
}
