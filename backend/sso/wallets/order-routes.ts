import express from "express";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import { ApiError, handle, parseInput, sendOk } from "../../http";
import type { SsoCore } from "../core";
import { ORDER_SIGNING_MSG, type OrderSigner, signOrderInput } from "./order-signing";
import { requireSession } from "../accounts";

/** POST /sso/signOrder (docs/api/sso.md "Signed market orders"): a managed wallet's market order, signed here. */
export function orderSigningRoutes(core: SsoCore, signer: OrderSigner) {
  const router = express.Router();
  router.post(
    "/sso/signOrder",
    handle(async (req, res) => {
      const { user } = await requireSession(core, req);
      if (user.bind_addr_type !== BIND_ADDR_TYPE.managed || !user.wallet_address) throw new ApiError(403, ORDER_SIGNING_MSG.managedOnly);
      sendOk(res, await signer.sign(user, parseInput(signOrderInput, req.body)));
    }),
  );
  return router;
}
