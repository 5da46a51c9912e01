import express from "express";
import type { BackendContext, SsoAuth } from "../types";
import { accountRoutes } from "./account-routes";
import { createSsoCore } from "./core";
import { outboxRoutes } from "./outbox-routes";
import { storeRoutes } from "./store-routes";
import { tokenOwner } from "./users";
import { walletRoutes } from "./wallet-routes";

/**
 * The embedded SSO backend (product §7 "node backend"): `router` answers /sso, /basic, /api/user and /store;
 * `devRouter` the dev outbox; `auth` tells the other services who owns a token and signs with managed wallets.
 */
export function createSsoService(ctx: BackendContext) {
  const core = createSsoCore(ctx);

  const router = express.Router();
  router.use(accountRoutes(core, ctx.options), walletRoutes(core), storeRoutes(core));

  const auth: SsoAuth = {
    async ownerOfToken(token) {
      const live = await core.sessions.find(token);
      return live ? tokenOwner(live.user) : null;
    },
    managedAccount: (userId) => core.wallets.managedAccount(userId),
  };

  return { router, devRouter: outboxRoutes(core.db), auth };
}
