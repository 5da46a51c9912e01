import express, { type NextFunction, type Request, type Response } from "express";
import { isPostgresUrl } from "./db";
import { openDatabase } from "./schema";
import { lockDatabase } from "./db/process-lock";
import { createSsoService } from "./sso/service";
import { createMarketService } from "./market/service";
import { seedIfEmpty } from "./seed";
import { sendError } from "./http";
import type { BackendOptions } from "./types";

export type { BackendOptions } from "./types";

/** Path prefixes the embedded backends answer; everything else belongs to the app. */
export const API_PATHS = ["/sso", "/basic", "/api/user", "/store", "/api/v1", "/dev/outbox"];

/**
 * The embedded reference backends: the SSO API (/sso, /basic, /api/user, /store) and the market API (/api/v1),
 * both on one database: a SQLite file, which they lock for this process (db/process-lock.ts), or PostgreSQL, shared
 * by any number of processes, each running the background roles it holds (db/roles.ts). Returns one Express router
 * to mount at the site root.
 */
export async function startBackends(databaseFile: string, options: BackendOptions) {
  // A SQLite file belongs to one process; PostgreSQL is shared by design.
  const lock = databaseFile === ":memory:" || isPostgresUrl(databaseFile) ? null : await lockDatabase(databaseFile, options.log);
  try {
    return await start(databaseFile, options, async () => lock?.release());
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

async function start(databaseFile: string, options: BackendOptions, unlock: () => Promise<void>) {
  const log = options.log ?? console;
  const store = await openDatabase(databaseFile, { log: (message) => log.info(message) });
  const ctx = { store, options };
  const sso = createSsoService(ctx);
  // The market shares no code path with the SSO: it asks it over HTTP whose a token is (options.ssoApi).
  const market = createMarketService(ctx);
  if (options.seedDemo) await seedIfEmpty(ctx);
  // The background roles run in one process at a time (db/roles.ts): here, unless another process holds them. The
  // executor's holder resumes what an earlier one left unfinished; the queues then run in the background.
  if (market.indexer) await store.roles.run("indexer", market.indexer);
  if (market.reconciler) await store.roles.run("reconciler", market.reconciler.role);
  if (sso.executor) await store.roles.run("executor", sso.executor.role);
  if (sso.delivery) await store.roles.run("delivery", sso.delivery.role);

  const router = express.Router();
  // Body parsers only on the API paths: the Remix app reads its own form bodies.
  router.use(API_PATHS, express.json({ limit: "100kb" }), express.urlencoded({ extended: false, limit: "100kb" }));
  router.use(sso.router);
  router.use("/api/v1", market.router);
  if (options.exposeDevOutbox) router.use(sso.devRouter);
  // Body-parser failures (malformed JSON, too large) answer in the envelope, not Express's HTML page.
  router.use(API_PATHS, (error: { status?: number; type?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent || !error.status || error.status >= 500) return next(error);
    sendError(res, error.status, error.type === "entity.too.large" ? "Request body too large" : "Malformed request body");
  });

  return {
    router,
    store,
    /** The market's chain indexer (null without options.chain); tests wait on its synced block. */
    indexer: market.indexer,
    /** The market's chain reconciler (null without options.chain): a run on demand, besides its role's period. */
    reconciler: market.reconciler,
    /** The executor's unfinished actions by status (null without options.chain): its queue depth, for the metrics. */
    executorQueue: sso.executor?.queueDepth ?? null,
    /** The gas tank's balance and today's sponsorships (null without a tank), for the metrics. */
    gasTank: sso.executor?.gasTank ?? null,
    /** Whether this process holds each background role now (for the metrics). */
    roles: store.roles,
    async close() {
      market.stop();
      // Lets go of the roles first: their work stops at a safe point before the connections close.
      await store.close();
      await unlock();
    },
  };
}
