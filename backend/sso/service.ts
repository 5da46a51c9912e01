import express from "express";
import type { BackendContext } from "../types";
import { accountRoutes } from "./account-routes";
import { createSsoCore } from "./core";
import { createExecutor } from "./executor/executor";
import { actionRoutes } from "./executor/routes";
import { outboxRoutes } from "./outbox-routes";
import { createBoxDelivery } from "./store-delivery";
import { createStorePayments } from "./store-payments";
import { storeRoutes } from "./store-routes";
import { orderSigningRoutes } from "./order-routes";
import { createOrderSigner } from "./order-signing";
import { walletRoutes } from "./wallet-routes";

/**
 * The embedded SSO backend (product §7 "node backend"): `router` answers /sso, /basic, /api/user and /store;
 * `devRouter` the dev outbox; `executor` (with options.chain only) takes managed wallets' on-chain actions; its `role` runs them in the process
 * holding the executor role.
 */
export function createSsoService(ctx: BackendContext) {
  const core = createSsoCore(ctx);

  const { chain, payments: paymentsConfig } = ctx.options;
  const payments = paymentsConfig
    ? createStorePayments({
        orders: core.cardOrders,
        config: paymentsConfig,
        delivery: chain ? createBoxDelivery(chain, paymentsConfig.minterKey) : null,
        log: (message) => (ctx.options.log ?? console).error(message),
      })
    : null;
  const router = express.Router();
  router.use(
    accountRoutes(core, ctx.options),
    walletRoutes(core),
    orderSigningRoutes(core, createOrderSigner(core.db, core.wallets, ctx.options)),
    storeRoutes(core, payments),
  );
  const executor = chain
    ? createExecutor({
        db: core.db,
        roles: ctx.store.roles,
        chain,
        accountOf: (userId) => core.wallets.managedAccount(userId),
        log: ctx.options.log,
        analytics: ctx.options.analytics,
      })
    : null;
  if (executor) router.use(actionRoutes(core, executor));

  return { router, devRouter: outboxRoutes(core.db), executor };
}
