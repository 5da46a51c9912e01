/**
 * The app's Prometheus metrics (issue 16): its backend calls and chain RPC errors. server/metrics.ts adds the
 * request metrics to the same registry and serves it. server.ts and the Remix build each load their own copy of this
 * module, and development reloads the build: the registry and each metric are made once per process.
 */
import { Counter, Histogram, Registry } from "prom-client";

const KEY = Symbol.for("spark-era.metrics");
const holder = globalThis as typeof globalThis & { [KEY]?: Registry };
export const metricsRegistry: Registry = (holder[KEY] ??= new Registry());

/** The metric registered under `name`, made by `make` the first time. */
export function metric<T>(name: string, make: (name: string) => T): T {
  return (metricsRegistry.getSingleMetric(name) as T | undefined) ?? make(name);
}

export const backendCallSeconds = metric(
  "spark_backend_call_duration_seconds",
  (name) =>
    new Histogram({
      name,
      help: "Calls from the app to the SSO and market APIs, by endpoint: connecting, headers and body",
      labelNames: ["method", "endpoint"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metricsRegistry],
    }),
);

/** Why a call failed: the backend was too slow, could not be reached, answered 5xx, or answered something not JSON. */
export type BackendFailure = "timeout" | "unreachable" | "server_error" | "malformed";

export const backendCallFailures = metric(
  "spark_backend_call_failures_total",
  (name) =>
    new Counter({
      name,
      help: "Backend calls that failed (a refusal such as 400, 401 or 404 is an answer, not a failure)",
      labelNames: ["method", "endpoint", "reason"] as const,
      registers: [metricsRegistry],
    }),
);

export const chainRpcErrors = metric(
  "spark_chain_rpc_errors_total",
  (name) =>
    new Counter({
      name,
      help: "Chain JSON-RPC requests that failed, by source (app, indexer, executor, store): transport (unreachable, timeout, HTTP error) or rpc (an error answer)",
      labelNames: ["method", "kind", "source"] as const,
      registers: [metricsRegistry],
    }),
);

/** A segment that names one thing rather than an endpoint: a number, an address or hash, a long hex id. */
const ID_SEGMENT = /^(\d+|0x[0-9a-f]+|[0-9a-f]{16,})$/i;

/** A backend path as a label of bounded cardinality: no query, ids as ":id". */
export function endpointLabel(path: string): string {
  return path
    .split("?")[0]
    .split("/")
    .map((segment) => (ID_SEGMENT.test(segment) ? ":id" : segment))
    .join("/");
}
