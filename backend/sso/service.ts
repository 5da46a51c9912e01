import express from "express";
import { privateKeyToAccount } from "viem/accounts";
import type { BackendContext, BackendGasTank } from "../types";
import type { GasTankConfig } from "./executor/gas-sponsor";
import { createPriceSource } from "./executor/gas-prices";
import { DEFAULT_GAS_TANK_POLICY } from "./executor/gas-tank";
import { accountRoutes } from "./accounts/account-routes";
import { createSsoCore } from "./core";
import { createExecutor } from "./executor";
import { actionRoutes } from "./executor/routes";
import { outboxRoutes } from "./mail/outbox-routes";
import { createBoxDelivery, createDeliveryWorker, createStorePayments } from "./store";
import { storeRoutes } from "./store/store-routes";
import { orderSigningRoutes } from "./wallets/order-routes";
import { createOrderSigner } from "./wallets";
import { walletRoutes } from "./wallets/wallet-routes";
import { watchMailRoutes } from "./mail/watch-mail-routes";

/** The gas tank's configuration as the executor takes it. */
function gasTankConfig({ key, rates, feeReceiver, policy }: BackendGasTank): GasTankConfig {
  return {
    account: privateKeyToAccount(key),
    prices: createPriceSource("url" in rates ? { url: rates.url } : { rates }),
    feeReceiver,
    policy: { ...DEFAULT_GAS_TANK_POLICY, ...policy },
  };
}

/**
 * The embedded SSO backend (product §7 "node backend"): `router` answers /sso, /basic, /api/user and /store;
 * `devRouter` the dev outbox; `executor` (with options.chain only) takes managed wallets' on-chain actions; its `role` runs them in the process
 * holding the executor role. `delivery` (with payments and a chain) mints paid card orders' boxes in the process
 * holding the delivery role.
 */
export function createSsoService(ctx: BackendContext) {
  const core = createSsoCore(ctx);

  const { chain, payments: paymentsConfig } = ctx.options;
  const storeLog = (message: string) => (ctx.options.log ?? console).error(message);
  const payments = paymentsConfig
    ? createStorePayments({ orders: core.cardOrders, config: paymentsConfig, roles: ctx.store.roles, log: storeLog })
    : null;
  // Card delivery mints on the chain: its role's work exists with both payments and a chain.
  const delivery =
    paymentsConfig && chain
      ? createDeliveryWorker({
          orders: core.cardOrders,
          delivery: createBoxDelivery(chain, paymentsConfig.minterKey),
          roles: ctx.store.roles,
          log: storeLog,
        })
      : null;
  const router = express.Router();
  router.use(
    accountRoutes(core, ctx.options),
    walletRoutes(core),
    orderSigningRoutes(core, createOrderSigner(core.db, core.wallets, ctx.options)),
    storeRoutes(core, payments),
    watchMailRoutes(core, ctx.options),
  );
  const executor = chain
    ? createExecutor({
        db: core.db,
        roles: ctx.store.roles,
        chain,
        accountOf: (userId) => core.wallets.managedAccount(userId),
        addressOf: (userId) => core.wallets.managedAddress(userId),
        log: ctx.options.log,
        analytics: ctx.options.analytics,
        gasTank: ctx.options.gasTank && gasTankConfig(ctx.options.gasTank),
      })
    : null;
  if (executor) router.use(actionRoutes(core, executor));

  return { router, devRouter: outboxRoutes(core.db), executor, delivery };
}
