/**
 * The embedded market backend (product §7 "Java (market) backend"), mounted at /api/v1.
 * Every endpoint answers the `{ code, msg, data, success }` envelope, except /metadata which serves plain
 * NFT metadata JSON. docs/api/market.md documents each endpoint.
 */
import express from "express";
import { sendError } from "../http";
import type { BackendContext } from "../types";
import { createMarketCore } from "./core";
import { gameRoutes } from "./claims/game-routes";
import { createChainIndexer } from "./indexer";
import { createChainReconciler } from "./reconciler";
import { inviteRoutes } from "./invites/invite-routes";
import { listingRoutes } from "./listings/listing-routes";
import { offerRoutes } from "./offers/offer-routes";
import { orderRoutes } from "./trades/order-routes";
import { socialRoutes } from "./listings/social-routes";
import { statsRoutes } from "./stats/stats-routes";
import { watchRoutes } from "./watches/watch-routes";

export function createMarketService(ctx: BackendContext) {
  const core = createMarketCore(ctx);

  // Each group adds its routes to this one router, not a sub-router of its own: a sub-router would answer
  // OPTIONS on its paths by itself, where the market answers the envelope 404 below.
  const router = express.Router();
  for (const routes of [listingRoutes, socialRoutes, orderRoutes, offerRoutes, gameRoutes, statsRoutes, inviteRoutes, watchRoutes])
    routes(router, core);

  // Everything under /api/v1 belongs to the market: unknown paths get the envelope, not the app's 404 page.
  router.use((_req, res) => sendError(res, 404, "Not found"));

  // Follows the chain when there is one; startBackends starts it after the demo seed, which only fills an empty market.
  const { chain, log, reconcile } = ctx.options;
  const indexer = chain ? createChainIndexer(core.db, chain, { log }) : null;
  // Checks the indexer's work against the chain, and repairs it (decision 0027).
  const reconciler = chain ? createChainReconciler(core.db, chain, { log, ...reconcile }) : null;

  return { router, indexer, reconciler, stop: core.watchDigest.stop };
}
