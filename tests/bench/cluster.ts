/**
 * Many processes on PostgreSQL (issue 27), on this machine:
 * - market page throughput with 1, 2 and 3 server processes on one copy of the bench market, rendered for every
 *   request (a cookie keeps the page cache away) and cached (visitors), each process taken in turn by the clients
 *   (a balancer's round robin without a proxy's own CPU), and the ratio to one process;
 * - the takeover time of each background role after `kill -9` of its holder: from the kill until another process's
 *   /metrics says it holds the role.
 *   npx tsx tests/bench/cluster.ts [--listings 20000] [--seconds 4] [--rounds 3] [--concurrency 8] [--kills 3]
 *     [--port 3700] [--chain-port 8700]
 * Needs a production build (one is made when missing), PostgreSQL and redis-server (as `npm test` does).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import { launchCluster, roleHolder, ROLES, type Cluster } from "../../scripts/cluster/launch";
import { waitFor } from "../../scripts/cluster/processes";
import { closedLoop, MARKET_PAGES, median, type Result, UNCACHED } from "./load";
import { cachedMarketDb } from "./market-db";
import { copyToPostgres, startBenchCluster } from "./market-pg";
import { ensureBuild } from "./server";

const values = cliOptions({
  listings: "20000",
  seconds: "4",
  rounds: "3",
  concurrency: "8",
  kills: "3",
  port: "3700",
  "chain-port": "8700",
});
const listings = Number(values.listings);
const ms = Number(values.seconds) * 1000;
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const kills = Number(values.kills);
const CACHE_DIR = path.resolve("data/bench-market");

async function start(processes: number, databaseUrl: string): Promise<{ cluster: Cluster; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-bench-cluster-"));
  const cluster = await launchCluster({
    processes,
    port: Number(values.port),
    chainPort: Number(values["chain-port"]),
    dataDir: dir,
    databaseUrl,
    // The bench is one client address: its requests are load, not abuse. The page cache answers visitors.
    env: { RATE_LIMIT_MULTIPLIER: "10000", PAGE_CACHE: "report", REQUEST_LOG: "off", SEED_DEMO: "off" },
  });
  return { cluster, dir };
}

async function stop({ cluster, dir }: { cluster: Cluster; dir: string }) {
  await cluster.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

async function throughput(processes: number, databaseUrl: string) {
  const running = await start(processes, databaseUrl);
  try {
    const bases = running.cluster.servers().map((server) => server.url);
    // Warm every process: its page cache, its count cache, its prepared statements.
    await closedLoop({ base: bases, paths: MARKET_PAGES, headers: UNCACHED }, 1_000, concurrency);
    await closedLoop({ base: bases, paths: MARKET_PAGES }, 1_000, concurrency);
    const uncached: Result[] = [];
    const cached: Result[] = [];
    for (let round = 0; round < rounds; round++) {
      uncached.push(await closedLoop({ base: bases, paths: MARKET_PAGES, headers: UNCACHED, expect: null }, ms, concurrency));
      cached.push(await closedLoop({ base: bases, paths: MARKET_PAGES, expect: "hit" }, ms, concurrency));
    }
    return {
      uncached: { rate: median(uncached.map((r) => r.rate)), p95: median(uncached.map((r) => r.p95)) },
      cached: { rate: median(cached.map((r) => r.rate)), p95: median(cached.map((r) => r.p95)) },
    };
  } finally {
    await stop(running);
  }
}

/** Each role's takeover times: kill -9 its holder, time until another process holds it, put the killed one back. */
async function takeovers(databaseUrl: string): Promise<Record<string, number[]>> {
  const running = await start(3, databaseUrl);
  const { cluster } = running;
  const times: Record<string, number[]> = Object.fromEntries(ROLES.map((role) => [role, []]));
  try {
    for (const role of ROLES) {
      for (let kill = 0; kill < kills; kill++) {
        const holder = await waitFor(`a holder of ${role}`, () => roleHolder(cluster, role));
        const killed = performance.now();
        await cluster.kill(holder.index);
        await waitFor(`another holder of ${role}`, () => roleHolder(cluster, role), { intervalMs: 10 });
        times[role].push(performance.now() - killed);
        await cluster.replace(holder.index);
      }
    }
    return times;
  } finally {
    await stop(running);
  }
}

async function main() {
  ensureBuild();
  const source = await cachedMarketDb(CACHE_DIR, listings);
  const pg = await startBenchCluster();
  try {
    const url = await pg.createDatabase(`cluster_${listings}`);
    await copyToPostgres(source, url, () => undefined);
    console.log(`${listings.toLocaleString("en")} listings on PostgreSQL; ${concurrency} clients, ${rounds} rounds of ${ms / 1000} s`);
    console.log(`this machine: ${os.cpus().length} cores`);
    const figures: { processes: number; uncached: { rate: number; p95: number }; cached: { rate: number; p95: number } }[] = [];
    for (const processes of [1, 2, 3]) figures.push({ processes, ...(await throughput(processes, url)) });
    const one = figures[0];
    console.log("\nmarket pages (req/s, p95 ms, ratio to one process)");
    for (const { processes, uncached, cached } of figures) {
      console.log(
        `  ${processes} process${processes > 1 ? "es" : ""}: rendered ${uncached.rate.toFixed(0)}/s p95 ${uncached.p95.toFixed(0)} ms ` +
          `(${(uncached.rate / one.uncached.rate).toFixed(2)}×); cached ${cached.rate.toFixed(0)}/s p95 ${cached.p95.toFixed(0)} ms ` +
          `(${(cached.rate / one.cached.rate).toFixed(2)}×)`,
      );
    }
    const times = await takeovers(url);
    console.log(`\ntakeover after kill -9 of the holder (${kills} kills per role; ms)`);
    for (const [role, list] of Object.entries(times)) {
      console.log(
        `  ${role}: median ${median(list).toFixed(0)}, max ${Math.max(...list).toFixed(0)} (${list.map((t) => t.toFixed(0)).join(", ")})`,
      );
    }
  } finally {
    await pg.stop();
  }
}

await main();
