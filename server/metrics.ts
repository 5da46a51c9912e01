/**
 * Prometheus metrics (issue 16) on the registry of app/services/metrics.server.ts, which also holds the app's backend
 * call and chain RPC metrics: request duration by route and status, the executor's queue read on each scrape, and
 * the chain reconciler's differences.
 * Served only when configured: with METRICS_PORT on a listener of its own, else with METRICS_TOKEN on the public
 * port behind that bearer token (compared in constant time). Neither set: no /metrics anywhere.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import express, { type RequestHandler, type Response } from "express";
import { collectDefaultMetrics, Gauge, Histogram } from "prom-client";
import { metric, metricsRegistry } from "../app/services/metrics.server";
import type { RequestScope } from "../app/services/request-scope.server";
import { apiPrefixOf } from "./api-paths";
import { isPathOf } from "./page-cache";

export const httpRequestSeconds = metric(
  "spark_http_request_duration_seconds",
  (name) =>
    new Histogram({
      name,
      help: "Requests to the public port by route (the Remix route id, else a fixed group) and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metricsRegistry],
    }),
);

/** Where server.ts keeps a request's scope, so its route is known when the response is done. */
export const scopeOf = (res: Response): RequestScope | undefined => res.locals.requestScope as RequestScope | undefined;

/**
 * A request's route label, of bounded cardinality (never the URL): the deepest Remix route that ran ("page-cache"
 * for a page answered from the cache, "remix" when no route ran), the API prefix of a backend path, "/build" for the
 * build's assets, else "other" (public files, refusals before the app).
 */
export function routeLabel(
  path: string,
  scope: RequestScope | undefined,
  { apiPaths, cachedPaths }: { apiPaths: readonly string[]; cachedPaths: readonly (string | RegExp)[] },
): string {
  if (scope) return scope.timings?.route?.id ?? (cachedPaths.some((cached) => isPathOf(cached, path)) ? "page-cache" : "remix");
  const api = apiPrefixOf(path, apiPaths);
  if (api) return api;
  return path.startsWith("/build/") ? "/build" : "other";
}

/** Times every request to its end (a client that leaves early included). */
export function requestMetrics(options: { apiPaths: readonly string[]; cachedPaths: readonly (string | RegExp)[] }): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    // Read now: a router mounted on a prefix (the build's static files) strips it from req.path.
    const path = req.path;
    res.once("close", () => {
      const route = routeLabel(path, scopeOf(res), options);
      httpRequestSeconds.observe({ method: req.method, route, status: String(res.statusCode) }, (performance.now() - started) / 1000);
    });
    next();
  };
}

/**
 * The executor's unfinished actions by status, read from its store on each scrape: by the executor role's holder only,
 * so that summing the gauge over every process counts each action once.
 */
export function executorQueueGauge(depth: () => Promise<Record<string, number>>, holdsExecutor: () => boolean): void {
  metric(
    "spark_executor_actions",
    (name) =>
      new Gauge({
        name,
        help: "Managed wallets' on-chain actions not yet final, by status (queued, approving, sending)",
        labelNames: ["status"] as const,
        registers: [metricsRegistry],
        async collect() {
          this.reset();
          if (!holdsExecutor()) return;
          const counts = await depth();
          for (const status of ["queued", "approving", "sending"]) this.set({ status }, counts[status] ?? 0);
        },
      }),
  );
}

/**
 * The gas tank (decision 0038), read on each scrape by the executor role's holder only: its balance in BNB, whether it
 * is below its alert level, and the gas it sent and the actions it sponsored today (UTC).
 */
export function gasTankGauges(
  state: () => Promise<{ balanceWei: bigint; lowBalanceWei: bigint; todayWei: bigint; todayActions: number }>,
  holdsExecutor: () => boolean,
): void {
  const bnb = (wei: bigint) => Number(wei) / 1e18;
  const read = () => (holdsExecutor() ? state() : Promise.resolve(null));
  const gauge = (name: string, help: string, value: (s: Awaited<ReturnType<typeof state>>) => number) =>
    metric(
      name,
      (metricName) =>
        new Gauge({
          name: metricName,
          help,
          registers: [metricsRegistry],
          async collect() {
            this.reset();
            const current = await read().catch(() => null);
            if (current) this.set(value(current));
          },
        }),
    );
  gauge("spark_gas_tank_balance", "The gas tank's balance, in BNB (a float for the dashboard; the tank counts in wei)", (s) =>
    bnb(s.balanceWei),
  );
  gauge("spark_gas_tank_low", "1 while the gas tank holds less than its alert level, else 0", (s) =>
    s.balanceWei < s.lowBalanceWei ? 1 : 0,
  );
  gauge("spark_gas_tank_sponsored_today", "Gas the tank sent sponsored actions today (UTC), in BNB", (s) => bnb(s.todayWei));
  gauge("spark_gas_tank_sponsored_actions_today", "Actions the tank sponsored today (UTC)", (s) => s.todayActions);
}

/**
 * The chain reconciler's last run (decision 0027): the differences it found between the market and the chain, by
 * kind. Set by the reconciler role's holder after each run, so a sum over processes counts a run once.
 */
export function reportChainDrift(differences: Record<string, number>): void {
  const gauge = metric(
    "spark_chain_drift",
    (name) =>
      new Gauge({
        name,
        help: "Differences between the market and the chain the reconciler's last run found and repaired, by kind (item, stack, listing)",
        labelNames: ["kind"] as const,
        registers: [metricsRegistry],
      }),
  );
  for (const [kind, count] of Object.entries(differences)) gauge.set({ kind }, count);
}

/** 1 for each background role this process holds, else 0: over every process, each role's sum should be exactly 1. */
export function rolesGauge(roles: readonly string[], holds: (role: string) => boolean): void {
  metric(
    "spark_role_held",
    (name) =>
      new Gauge({
        name,
        help: "Whether this process holds the background role (executor, indexer, delivery, reconciler)",
        labelNames: ["role"] as const,
        registers: [metricsRegistry],
        collect() {
          for (const role of roles) this.set({ role }, holds(role) ? 1 : 0);
        },
      }),
  );
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the Authorization header carries `token` as a bearer token; equal-length digests compare in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token));
}

/** GET /metrics: the registry as Prometheus text, with `token` required when set. */
export function metricsEndpoint({ token }: { token?: string }): RequestHandler {
  return (req, res) => {
    res.set("Cache-Control", "no-store");
    if (token && !bearerMatches(req.headers.authorization, token)) {
      res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain").send("Unauthorized\n");
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.set("Content-Type", metricsRegistry.contentType).end(text),
      // A collector that fails (the executor's store closing) is a missed scrape, not a 500.
      () => res.status(503).type("text/plain").send("Metrics unavailable\n"),
    );
  };
}

export interface MetricsConfig {
  token?: string;
  port?: number;
  host: string;
}

/**
 * Serves the metrics as configured: on their own port (returned, to close on shutdown), or on `app` behind the
 * token. Process metrics (CPU, memory, event loop lag, GC) are collected only when they are served.
 */
export function serveMetrics(
  app: express.Express,
  { token, port, host }: MetricsConfig,
  onListening: (address: string) => void,
): Server | null {
  if (!token && port === undefined) return null;
  // Once per registry (a second call would register the same names again).
  if (!metricsRegistry.getSingleMetric("spark_process_cpu_seconds_total"))
    collectDefaultMetrics({ register: metricsRegistry, prefix: "spark_" });
  if (port === undefined) {
    app.get("/metrics", metricsEndpoint({ token }));
    return null;
  }
  const metricsApp = express();
  metricsApp.disable("x-powered-by");
  metricsApp.get("/metrics", metricsEndpoint({ token }));
  return metricsApp.listen(port, host, () => onListening(`${host}:${port}`));
}
