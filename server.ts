import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type Response } from "express";
import helmet from "helmet";
import { startBackends, API_PATHS } from "./backend";
import { DatabaseInUseError, lockDatabase } from "./backend/db/process-lock";
import { indexerGenerationReader, pageGenerationReader } from "./backend/market/trades/page-generation";
import { startLocalChain } from "./contracts/chain";
import { publicFiles } from "./server/public-files";
import { installRouteMatchMemo } from "./server/route-match-memo";
import { backendChainFromEnv } from "./server/backend-chain";
import { retireStaleLocalData } from "./server/local-data";
import { readDeployment } from "./contracts/deployment";
import { alignMetadataBase, metadataBaseUris } from "./contracts/metadata-base";
import { parseEnv } from "./app/services/env.server";
import { startWarnings } from "./app/services/env-warnings.server";
import { internalToken, internalTokenFor } from "./app/services/internal-token.server";
import { serveEmbeddedBackendsInProcess } from "./app/services/embedded-backends.server";
import { configureChain, latestBlockNumber } from "./app/services/chain.server";
import { chainRpcErrors } from "./app/services/metrics.server";
import { requestScope, RequestTimings, type RequestScope } from "./app/services/request-scope.server";
import { formBodiesOnly } from "./server/form-body";
import { inProcessBackends } from "./server/in-process-backends";
import { HTTP_TIMEOUTS } from "./server/http-timeouts";
import { consoleOf, createLogger, requestLogger } from "./server/logging";
import { clientErrorsInOneLine, refuseMalformedRequests } from "./server/malformed-request";
import { executorQueueGauge, gasTankGauges, reportChainDrift, requestMetrics, rolesGauge, serveMetrics } from "./server/metrics";
import { ROLE_NAMES, type RoleName } from "./backend/db/roles";
import { isMetadataPath, isPreviewPath, metadataPreflight, metadataSecurityHeaders } from "./server/nft-metadata";
import { originCheck } from "./server/origin-check";
import { remixHandler, type PageCacheOptions } from "./server/page-cache";
import { visitorPages } from "./server/visitor-pages";
import { itemViewCounter } from "./server/item-views";
import { Admission, admittedBuild, RENDER_MAX_WAIT_MS, RENDER_QUEUE } from "./server/render-admission";
import { isInternalApiCall, rateLimits, warnOnUntrustedForwarding } from "./server/rate-limit";
import { closeSharedRedis, redisRateLimitStores, sharedRedis } from "./server/redis";
import { serverTimingOnHead, timedBuild } from "./server/timing";

let env;
try {
  env = parseEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
// JSON lines on stdout (issue 16): the start-up's, the access log's and every request's own.
const logger = createLogger({ level: env.LOG_LEVEL });
for (const warning of startWarnings(env)) logger.warn(warning);
// Error tracing only with a DSN: without one, Sentry is never loaded.
const sentry = env.SENTRY_DSN ? (await import("./server/sentry")).startSentry({ dsn: env.SENTRY_DSN, environment: env.NODE_ENV }) : null;
const IS_PROD = env.NODE_ENV === "production";
// Same convention as remix.config.js.
const BUILD_DIR = env.REMIX_BUILD_DIR;
const BUILD_PATH = path.resolve(BUILD_DIR ? `${BUILD_DIR}/index.js` : "build/index.js");
const ASSETS_DIR = BUILD_DIR ? `${BUILD_DIR}/assets` : "public/build";

// Remix matches a document's path against every route four or five times per request: once per path (decision 0037).
installRouteMatchMemo();

async function loadBuild(): Promise<ServerBuild> {
  // In development the build changes under us: import the newest one by its modification time.
  const version = IS_PROD ? "" : `?t=${fs.statSync(BUILD_PATH).mtimeMs}`;
  return import(pathToFileURL(BUILD_PATH).href + version);
}

// One server process per SQLite file (backend/db/process-lock.ts): checked before this one touches its data or chain.
// PostgreSQL (DATABASE_URL) is shared by design: migrations and the demo seed run under its advisory lock.
if (env.embeddedBackends && !env.DATABASE_URL) {
  try {
    await lockDatabase(env.DATABASE_PATH, consoleOf(logger));
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    logger.fatal(error.message);
    process.exit(1);
  }
}

// No chain configured: run our own local node next to the database, so both keep in step across restarts.
const localChainDir = path.join(path.dirname(env.DATABASE_PATH), "chain");
if (!env.CHAIN_RPC_URL && env.embeddedBackends) {
  const retired = retireStaleLocalData(env.DATABASE_PATH, localChainDir);
  if (retired) logger.warn(`[chain] the contracts changed since this chain was deployed: its data moved to ${retired}; starting afresh`);
}
// Our collections' metadata URLs name this site (decision 0016): deployed so, and moved here when the site moved.
const metadataBase = metadataBaseUris(env.publicUrl);
const chain = env.CHAIN_RPC_URL
  ? undefined
  : await startLocalChain({
      port: env.CHAIN_PORT,
      stateFile: path.join(path.dirname(env.DATABASE_PATH), "chain", "anvil-state.json"),
      deploymentFile: path.join(path.dirname(env.DATABASE_PATH), "chain", "deployment.json"),
      ...metadataBase,
      log: (message) => logger.info(`[chain] ${message}`),
    });
if (chain) {
  const moved = await alignMetadataBase(chain.deployment, metadataBase, { rpcUrl: chain.rpcUrl });
  if (moved.length) logger.info(`[chain] metadata base of ${moved.join(", ")} moved to ${env.publicUrl}/nft/`);
}
// No local node means CHAIN_RPC_URL is set, and the schema then insists on DEPLOYMENT_FILE.
const rpcUrls = chain ? [chain.rpcUrl] : env.CHAIN_RPC_URL!;
// Browsers get one node, never a provider URL with its key unless it is the only one configured.
const publicRpcUrl = env.CHAIN_PUBLIC_RPC_URL ?? rpcUrls[0]!;
const deployment = chain ? chain.deployment : readDeployment(env.DEPLOYMENT_FILE!);
if (!deployment) {
  logger.fatal(`No contract deployment at ${env.DEPLOYMENT_FILE}`);
  process.exit(1);
}
// The app's pages read the same chain as the backends.
configureChain({ rpcUrls, publicRpcUrl, deployment });

const app = express();
app.disable("x-powered-by");
// Pages are rendered per request and API answers are read once by the app: hashing every body buys nothing.
app.set("etag", false);
app.set("trust proxy", env.TRUST_PROXY);
const INTERNAL_TOKEN = internalToken(env.INTERNAL_TOKEN);
const redis = sharedRedis(env.REDIS_URL, consoleOf(logger));
// First: the routes below decode path parameters and would throw on a bad escape.
app.use(refuseMalformedRequests({ apiPaths: API_PATHS, warn: (message) => logger.warn(message) }));

app.get("/healthz", (_req, res) => {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
});

// Exported for the e2e harness (tests/e2e/server.ts), which stocks test accounts through this very connection.
export const backends = env.embeddedBackends
  ? await startBackends(env.DATABASE_URL ?? env.DATABASE_PATH, {
      walletEncryptionKey: env.walletEncryptionKey,
      claimSignerKey: env.claimSignerKey,
      chainId: env.CHAIN_ID,
      signInDomain: new URL(env.publicUrl).host,
      publicUrl: env.publicUrl,
      smtpUrl: env.SMTP_URL,
      mailFrom: env.MAIL_FROM,
      assetManagerAddress: deployment.contracts.assetManager,
      fireTokenAddress: deployment.contracts.fire,
      tokenTtlSeconds: 60 * 60 * 24,
      internalToken: INTERNAL_TOKEN,
      // The market asks the SSO whose a token is over HTTP, as it would ask a separate SSO: this server over loopback
      // (the internal token keeps it out of the public rate limits), or the external SSO, which gets INTERNAL_TOKEN only.
      ssoApi: env.SSO_API_URL
        ? { baseUrl: env.SSO_API_URL, internalToken: internalTokenFor(env.SSO_API_URL, env.INTERNAL_TOKEN) }
        : { baseUrl: `http://127.0.0.1:${env.PORT}`, internalToken: INTERNAL_TOKEN },
      log: consoleOf(logger),
      // The executor reports managed wallets' mined actions itself (decision 0009), to the app's sink.
      analytics: env.ANALYTICS_SINK,
      chain: {
        ...backendChainFromEnv(env, rpcUrls, deployment),
        onRpcError: ({ method, kind, source }) => chainRpcErrors.inc({ method, kind, source }),
      },
      reconcile: { intervalMs: env.RECONCILE_INTERVAL_MS, onDrift: reportChainDrift },
      // Only on a local URL without SMTP: see docs/decisions/0001.
      exposeDevOutbox: env.exposeDevOutbox,
      seedDemo: env.seedDemo,
      payments: {
        webhookSecret: env.paymentWebhookSecret,
        testCheckout: !env.STRIPE_SECRET_KEY,
        webhookUrl: `${env.publicUrl}/stripe/webhook`,
        minterKey: env.storeMinterKey,
      },
      gasTank: env.gasTank ?? undefined,
    })
  : undefined;

// The app calls its embedded backends in this process, through their own router (decision 0036); SSO_API_URL and
// MARKET_API_URL still send it to real ones over HTTP.
if (backends)
  serveEmbeddedBackendsInProcess(inProcessBackends(backends.router, { apiPaths: API_PATHS, warn: (message) => logger.warn(message) }));

// Before the access log, like /healthz: scrapes are not traffic. With METRICS_PORT they are served there instead.
const metricsServer = serveMetrics(app, { token: env.METRICS_TOKEN, port: env.METRICS_PORT, host: env.HOST }, (address) =>
  logger.info(`Metrics on http://${address}/metrics`),
);
if (backends) {
  const { roles } = backends;
  if (backends.executorQueue) executorQueueGauge(backends.executorQueue, () => roles.holds("executor"));
  if (backends.gasTank) gasTankGauges(backends.gasTank, () => roles.holds("executor"));
  rolesGauge(ROLE_NAMES, (role) => roles.holds(role as RoleName));
}

// Every request gets its id here (the backends' lines carry the one the app forwards); REQUEST_LOG=off drops the access log only.
app.use(requestLogger(logger, { accessLog: env.REQUEST_LOG === "on" }));

// The app's own loopback calls to its embedded backends are JSON for this process, not pages for a browser:
// they skip compression, static files and the CSP (and were rate limited when the user's request came in).
if (backends) {
  app.use((req, res, next) => (isInternalApiCall(req, API_PATHS, INTERNAL_TOKEN) ? backends.router(req, res, next) : next()));
}
// The pages the page cache may answer (below; server/visitor-pages.ts, decision 0033).
const CACHED_PAGES = backends
  ? visitorPages({
      market: pageGenerationReader(backends.store),
      chain: () => latestBlockNumber(),
      indexer: indexerGenerationReader(backends.store),
      countView: itemViewCounter(backends.store, INTERNAL_TOKEN),
    })
  : [];
// Request metrics for the public port only: the app's own backend calls are timed by its client.
app.use(requestMetrics({ apiPaths: API_PATHS, cachedPaths: CACHED_PAGES.map((page) => page.path) }));

// A page from the page cache is sent as it is kept, compressed already, with an ETag for its coding.
app.use(compression({ filter: (req, res) => !res.locals.pageEncoded && compression.filter(req, res) }));
// Fingerprinted build output never changes: cache it for a year.
app.use("/build", express.static(ASSETS_DIR, { immutable: true, maxAge: "1y" }));
// Only for paths under public/'s own entries: a page's path would cost every request a file-system stat.
app.use(publicFiles("public", express.static("public", { maxAge: "1h" })));

app.use((_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString("hex");
  next();
});

const pageSecurityHeaders = helmet({
  xPoweredBy: false,
  referrerPolicy: { policy: "same-origin" },
  crossOriginEmbedderPolicy: false,
  contentSecurityPolicy: {
    directives: {
      "default-src": ["'self'"],
      "script-src": ["'strict-dynamic'", "'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
      "script-src-attr": ["'none'"],
      "style-src": ["'self'", "'unsafe-inline'"],
      "img-src": ["'self'", "data:"],
      // The wallet islands read the chain directly; the browser's Sentry reports to its ingest, with a DSN only.
      "connect-src": ["'self'", new URL(publicRpcUrl).origin, ...(env.SENTRY_DSN ? [new URL(env.SENTRY_DSN).origin] : [])],
      "form-action": ["'self'"],
      "frame-ancestors": ["'none'"],
      "upgrade-insecure-requests": IS_PROD && env.publicUrl.startsWith("https:") ? [] : null,
    },
  },
});
// The NFT metadata documents and the link-preview images are for any site, not pages (server/nft-metadata.ts).
app.use((req, res, next) =>
  (isMetadataPath(req.path) || isPreviewPath(req.path) ? metadataSecurityHeaders : pageSecurityHeaders)(req, res, next),
);

app.use(warnOnUntrustedForwarding((message) => logger.warn(message)));
app.use(
  rateLimits({
    multiple: env.RATE_LIMIT_MULTIPLIER,
    apiPaths: API_PATHS,
    internalToken: INTERNAL_TOKEN,
    store: redis ? redisRateLimitStores(redis, consoleOf(logger)) : undefined,
  }),
);

if (backends) app.use(backends.router);
// Anything else under the API prefixes is not a page: answer like the backends do.
app.use(API_PATHS, (_req, res) => {
  res.status(404).json({ code: 404, msg: "Not found", data: null, success: false });
});

app.use(metadataPreflight);
app.use(originCheck({ publicUrl: env.publicUrl, apiPaths: API_PATHS }));
app.use(formBodiesOnly({ jsonPaths: ["/stripe/webhook"] }));
// Every backend call made for this request shares one deadline, names the browser it serves and forwards the request
// id; the scope also gathers the request's timings, sent as Server-Timing and read by the metrics when it ends.
app.use((req, res, next) => {
  const timings = new RequestTimings();
  const scope: RequestScope = {
    clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
    deadline: Date.now() + env.BACKEND_TIMEOUT_MS,
    requestId: String(req.id),
    log: req.log,
    timings,
    // Remix answers a .data (or ?_data) request with loader data alone, anything else with a document.
    document: !req.path.endsWith(".data") && req.query._data === undefined,
  };
  res.locals.requestScope = scope;
  serverTimingOnHead(res, timings);
  requestScope.run(scope, next);
});

// Visitor pages come from a cache keyed by their URL and their path's generation (the market's page generation, the
// chain's block: server/page-cache.ts, server/visitor-pages.ts), when this process holds the market's database, in
// production (in development the build changes under the pages).
// PAGE_CACHE=off turns it off; =report says X-Page-Cache: hit or miss on each cacheable page (the bench checks it).
// These pages carry no nonce: their inline scripts' hashes go in their CSP, and any shared cache may keep them for a
// while (Cache-Control public, s-maxage, a strong ETag; decision 0033). Every other page is private.
const productionBuild = IS_PROD ? await loadBuild() : undefined;
const pageCache: PageCacheOptions | undefined =
  productionBuild && backends && !env.MARKET_API_URL && env.PAGE_CACHE !== "off"
    ? {
        pages: CACHED_PAGES,
        report: env.PAGE_CACHE === "report",
        version: productionBuild.assets.version,
      }
    : undefined;

// Loaders and actions timed for Server-Timing, pages rendered RENDER_CONCURRENCY at a time (a burst gets 503s, not
// renders overrunning their deadline together); traced by Sentry too when it runs.
const renders = new Admission({ limit: env.RENDER_CONCURRENCY, queue: RENDER_QUEUE, maxWaitMs: RENDER_MAX_WAIT_MS });
const instrument = (build: ServerBuild) => {
  const served = admittedBuild(timedBuild(build), renders);
  return sentry ? sentry.instrumentBuild(served) : served;
};
app.all(
  "*",
  remixHandler({
    handleRequest: createRequestHandler(
      productionBuild ? instrument(productionBuild) : async () => instrument(await loadBuild()),
      env.NODE_ENV,
    ),
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
    cache: pageCache,
  }),
);
app.use(clientErrorsInOneLine);

// A drop opens thousands of connections at once (tests/bench/drop.ts): Node's default backlog of 511 dropped the rest's
// handshakes, and those clients gave up before the server could accept them. The kernel caps it at somaxconn.
const LISTEN_BACKLOG = 4096;
const server = http.createServer(HTTP_TIMEOUTS, app).listen(env.PORT, env.HOST, LISTEN_BACKLOG, () => {
  logger.info(`Spark Era is up on ${env.publicUrl}`);
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info(`${signal} received, shutting down`);
  const forced = setTimeout(() => process.exit(1), 10_000);
  forced.unref();
  metricsServer?.close();
  await new Promise((resolve) => server.close(resolve));
  await backends?.close();
  await chain?.stop();
  closeSharedRedis();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
