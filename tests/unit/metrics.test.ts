/**
 * Issue 16's Prometheus metrics: /metrics served only as configured (404 without config, 401 without the right
 * bearer token, its own port never the public one), and what it holds: request durations by route label, backend
 * calls and their failures by endpoint, chain RPC errors, the executor's queue.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingErrors } from "~/services/chain.server";
import { createBackendClient } from "~/services/http-client.server";
import { endpointLabel } from "~/services/metrics.server";
import { RequestTimings } from "~/services/request-scope.server";
import {
  bearerMatches,
  executorQueueGauge,
  reportChainDrift,
  requestMetrics,
  rolesGauge,
  routeLabel,
  serveMetrics,
} from "../../server/metrics";

const TOKEN = "metrics-token-0123456789";
const servers: Server[] = [];

async function listen(app: express.Express): Promise<string> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** An app as server.ts builds it: metrics as configured, request metrics, then a page for anything else. */
function app(config: { token?: string; port?: number }) {
  const app = express();
  const metricsServer = serveMetrics(app, { ...config, host: "127.0.0.1" }, () => undefined);
  if (metricsServer) servers.push(metricsServer);
  app.use(requestMetrics({ apiPaths: ["/api/v1"], cachedPaths: [] }));
  app.get("/api/v1/ok", (_req, res) => res.json({ code: 200, msg: "ok", data: 1, success: true }));
  app.get("/api/v1/broken/:id", (_req, res) => res.status(500).json({ code: 500, msg: "down", data: null, success: false }));
  app.use((_req, res) => res.status(404).send("Not found"));
  return { app, metricsServer };
}

describe("serving /metrics", () => {
  it("is a 404 on the public port without METRICS_TOKEN or METRICS_PORT", async () => {
    const base = await listen(app({}).app);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
  });

  describe("with METRICS_TOKEN", () => {
    let base: string;
    let holdsExecutor = true;
    const scrape = async () => (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    beforeAll(async () => {
      base = await listen(app({ token: TOKEN }).app);
      executorQueueGauge(
        async () => ({ queued: 2, sending: 1 }),
        () => holdsExecutor,
      );
      rolesGauge(["executor", "indexer"], (role) => role === "executor" && holdsExecutor);
    });

    it.each([
      ["no token", {}],
      ["a wrong token", { authorization: "Bearer metrics-token-0123456780" }],
      ["the token in another scheme", { authorization: `Basic ${TOKEN}` }],
    ])("answers 401 to %s", async (_name, headers: Record<string, string>) => {
      const response = await fetch(`${base}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain("spark_");
    });

    it("answers the metrics in Prometheus text to the right token", async () => {
      await fetch(`${base}/api/v1/ok`);
      await expect(createBackendClient({ baseUrl: base, timeoutMs: 1000 }).get("/api/v1/broken/0xabc123")).rejects.toMatchObject({
        status: 500,
      });
      const client = createPublicClient({ transport: countingErrors(http("http://127.0.0.1:9", { retryCount: 0 })) });
      await expect(client.getBlockNumber()).rejects.toThrow();

      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      expect(text).toContain('spark_http_request_duration_seconds_count{method="GET",route="/api/v1",status="200"} 1');
      expect(text).toContain('spark_backend_call_duration_seconds_count{method="GET",endpoint="/api/v1/broken/:id"} 1');
      expect(text).toContain('spark_backend_call_failures_total{method="GET",endpoint="/api/v1/broken/:id",reason="server_error"} 1');
      expect(text).toContain('spark_chain_rpc_errors_total{method="eth_blockNumber",kind="transport",source="app"} 1');
      expect(text).toContain('spark_executor_actions{status="queued"} 2');
      expect(text).toContain('spark_executor_actions{status="approving"} 0');
      expect(text).toContain("spark_process_cpu_seconds_total");
    });

    it("says which roles this process holds, and reports the queue only from the executor's holder", async () => {
      holdsExecutor = true;
      let text = await scrape();
      expect(text).toContain('spark_role_held{role="executor"} 1');
      expect(text).toContain('spark_role_held{role="indexer"} 0');
      expect(text).toContain('spark_executor_actions{status="sending"} 1');
      holdsExecutor = false;
      text = await scrape();
      expect(text).toContain('spark_role_held{role="executor"} 0');
      expect(text).not.toMatch(/^spark_executor_actions\{/m);
      holdsExecutor = true;
    });

    it("shows the chain reconciler's last run, by kind", async () => {
      reportChainDrift({ item: 2, stack: 0, listing: 1 });
      reportChainDrift({ item: 1, stack: 0, listing: 0 });
      const text = await scrape();
      expect(text).toContain('spark_chain_drift{kind="item"} 1');
      expect(text).toContain('spark_chain_drift{kind="listing"} 0');
    });
  });

  it("with METRICS_PORT, serves them on that port only (asking for the token too when it is set)", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    const { app: publicApp, metricsServer } = app({ token: TOKEN, port });
    const base = await listen(publicApp);
    await new Promise((resolve) => (metricsServer!.listening ? resolve(null) : metricsServer!.once("listening", resolve)));
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    const served = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("spark_http_request_duration_seconds");
  });
});

describe("labels of bounded cardinality", () => {
  it("names a request by the deepest Remix route that ran, never by its URL", () => {
    const options = { apiPaths: ["/api/v1", "/sso"], cachedPaths: ["/marketplace/market"] };
    const timings = new RequestTimings();
    timings.routeRan("root", 0);
    timings.routeRan("routes/marketplace.detail", 2);
    timings.routeRan("routes/marketplace", 1);
    const scope = { clientIp: "", deadline: 0, timings };
    expect(routeLabel("/marketplace/detail", scope, options)).toBe("routes/marketplace.detail");
    expect(routeLabel("/marketplace/market", { ...scope, timings: new RequestTimings() }, options)).toBe("page-cache");
    expect(routeLabel("/no/such/page", { ...scope, timings: new RequestTimings() }, options)).toBe("remix");
    expect(routeLabel("/sso/actions/abc", undefined, options)).toBe("/sso");
    expect(routeLabel("/build/_shared/chunk-X.js", undefined, options)).toBe("/build");
    expect(routeLabel("/favicon.svg", undefined, options)).toBe("other");
  });

  it("names a backend call by its path with ids as :id", () => {
    expect(endpointLabel("/sso/actions/0123456789abcdef0123456789abcdef")).toBe("/sso/actions/:id");
    expect(endpointLabel("/api/v1/informationCenter/favorite/add")).toBe("/api/v1/informationCenter/favorite/add");
    expect(endpointLabel("/api/v1/metadata/4/1234?x=1")).toBe("/api/v1/metadata/:id/:id");
  });

  it("compares the bearer token in full", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});
