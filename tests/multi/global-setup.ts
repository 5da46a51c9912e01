/**
 * Vitest globalSetup of the "multi" project (issue 27): one cluster for the run, launched by the same code as
 * `npm run cluster` (scripts/cluster/launch.ts): one PostgreSQL, one Redis, one anvil and three server processes.
 *
 * The processes belong to this (the main) process, so the test workers kill and replace them through a small control
 * server on loopback; everything else they need (URLs, secrets) travels in process.env, which the workers inherit.
 * Each server's log is a file under the run's temp dir (MULTI_KEEP=1 keeps the dir); a failed test prints the tails.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { launchCluster } from "../../scripts/cluster/launch";
import { nginxBinary } from "../../scripts/cluster/nginx";
import { startRpcProxy } from "../support/rpc-proxy";
import { CLUSTER_INFO_ENV, MULTI_PORTS, type ClusterInfo, type ServerInfo } from "./ports";

export default async function setup(): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-multi-"));
  // The servers reach the chain as they would a provider's (issue 41): narrow log ranges, now and then a 429. The
  // proxy forwards to the node the cluster is about to start; browsers and the tests' own reads go to it directly.
  const node = `http://127.0.0.1:${MULTI_PORTS.chain}`;
  const provider = await startRpcProxy({ target: node, maxLogRange: 1_000, rateLimitShare: 0.02, seed: MULTI_PORTS.chain });
  const cluster = await launchCluster({
    // MULTI_PROCESSES=1 checks the suite itself against one process, which holds every role.
    processes: Number(process.env.MULTI_PROCESSES ?? 3),
    port: MULTI_PORTS.proxy,
    chainPort: MULTI_PORTS.chain,
    dataDir: dir,
    // nginx's shared cache beside the proxy, for shared-cache.test.ts (which says so and skips without nginx).
    sharedCache: nginxBinary() ? { port: MULTI_PORTS.cache } : undefined,
    env: {
      // The limits as shipped: the sign-in test counts to the auth tier's 10 a minute; every other client has its own address.
      RATE_LIMIT_MULTIPLIER: "1",
      // Quicker receipts and indexing than the default 500 ms, for a suite that waits on both.
      CHAIN_POLL_MS: "200",
      LOG_LEVEL: "info",
      CHAIN_RPC_URL: provider.url,
      CHAIN_PUBLIC_RPC_URL: node,
    },
  }).catch(async (error: Error) => {
    await provider.stop();
    if (process.env.MULTI_KEEP !== "1") fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  });

  const describe = (): ServerInfo[] => cluster.servers().map(({ index, port, url, pid, logFile }) => ({ index, port, url, pid, logFile }));
  const control = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://control");
    const index = Number(url.searchParams.get("index"));
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const act = async () => {
      if (req.method === "GET" && url.pathname === "/servers") return answer(200, describe());
      if (req.method === "GET" && url.pathname === "/logs")
        return answer(200, { text: cluster.logTails(Number(url.searchParams.get("lines") ?? 40)) });
      if (req.method === "POST" && url.pathname === "/kill") {
        await cluster.kill(index);
        return answer(200, describe());
      }
      if (req.method === "POST" && url.pathname === "/heal") {
        await cluster.heal();
        return answer(200, describe());
      }
      if (req.method === "POST" && url.pathname === "/replace") {
        await cluster.replace(index);
        return answer(200, describe());
      }
      answer(404, { error: "no such control" });
    };
    act().catch((error: Error) => answer(500, { error: error.message }));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      control.once("error", reject);
      control.listen(MULTI_PORTS.control, "127.0.0.1", resolve);
    });
  } catch (error) {
    await cluster.stop();
    await provider.stop();
    throw error;
  }

  const info: ClusterInfo = {
    url: cluster.url,
    cacheUrl: cluster.cacheUrl,
    databaseUrl: cluster.databaseUrl,
    redisUrl: cluster.redisUrl,
    rpcUrl: cluster.rpcUrl,
    deploymentFile: cluster.deploymentFile,
    env: cluster.env,
    metricsToken: cluster.metricsToken,
    controlUrl: `http://127.0.0.1:${MULTI_PORTS.control}`,
    dir,
  };
  process.env[CLUSTER_INFO_ENV] = JSON.stringify(info);

  return async () => {
    await new Promise((resolve) => control.close(resolve));
    await cluster.stop();
    await provider.stop();
    if (process.env.MULTI_KEEP !== "1") fs.rmSync(dir, { recursive: true, force: true });
    else console.log(`multi: the cluster's logs are kept in ${dir}`);
  };
}
