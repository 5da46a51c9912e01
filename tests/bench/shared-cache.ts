/**
 * A shared cache in front of the app (issue 44 item 3, decision 0033): visitors' pages (market views, item pages, the
 * home, statistics and player pages) through nginx's proxy_cache against the app alone, while a writer changes the
 * market now and then (a listing's price, which moves the market's page generation):
 * - the app alone, visitors: its own page cache (per process) answers them;
 * - the app alone, a cookie: every page rendered (what a signed-in player costs);
 * - through nginx, visitors: its hit ratio (X-Cache-Status of every answer), throughput, p50 and p95.
 *   npx tsx tests/bench/shared-cache.ts [--seconds 8] [--concurrency 8] [--processes 2] [--write-every 2]
 *     [--port 3750] [--chain-port 8750]
 * Needs a production build (one is made when missing), PostgreSQL, redis-server and nginx (`nginx-light`), as
 * `npm run cluster` does; without nginx it says so and measures nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { openDatabase } from "../../backend/schema";
import { padWei } from "../../backend/market/shared/money";
import { launchCluster } from "../../scripts/cluster/launch";
import { nginxBinary } from "../../scripts/cluster/nginx";
import { MARKET_PAGES, UNCACHED } from "./load";
import { ensureBuild } from "./server";

const values = cliOptions({ seconds: "8", concurrency: "8", processes: "2", "write-every": "2", port: "3750", "chain-port": "8750" });
const ms = Number(values.seconds) * 1000;
const concurrency = Number(values.concurrency);
const writeEveryMs = Number(values["write-every"]) * 1000;

interface Figures {
  rate: number;
  requests: number;
  p50: number;
  p95: number;
  /** Each answer's cache status: nginx's X-Cache-Status, else the app's X-Page-Cache. */
  statuses: Record<string, number>;
}

/** `concurrency` visitors in a closed loop over `paths` for `duration`; anything but a 200 throws. */
async function load(base: string, paths: string[], duration: number, headers: Record<string, string> = {}): Promise<Figures> {
  const end = performance.now() + duration;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  async function client() {
    while (performance.now() < end) {
      const url = base + paths[next++ % paths.length];
      const started = performance.now();
      const response = await fetch(url, { redirect: "manual", headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      latencies.push(performance.now() - started);
      const status = response.headers.get("x-cache-status") ?? `app ${response.headers.get("x-page-cache") ?? "rendered"}`;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  return { rate: (latencies.length / elapsed) * 1000, requests: latencies.length, p50: at(0.5), p95: at(0.95), statuses };
}

function line(name: string, figures: Figures) {
  const statuses = Object.entries(figures.statuses)
    .sort(([, a], [, b]) => b - a)
    .map(([status, n]) => `${status} ${n}`)
    .join(", ");
  return `  ${name}: ${figures.rate.toFixed(0)} req/s, p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms (${figures.requests} requests: ${statuses})`;
}

async function main() {
  if (!nginxBinary()) {
    console.log("nginx is not installed (apt-get install nginx-light): the shared cache bench is skipped");
    return;
  }
  ensureBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-bench-shared-cache-"));
  const port = Number(values.port);
  const cluster = await launchCluster({
    processes: Number(values.processes),
    port,
    chainPort: Number(values["chain-port"]),
    dataDir: dir,
    sharedCache: { port: port + 8 },
    // The bench is one client address: its requests are load, not abuse. The app says what its page cache did.
    env: { RATE_LIMIT_MULTIPLIER: "10000", PAGE_CACHE: "report", REQUEST_LOG: "off" },
    log: () => undefined,
  });
  const store = await openDatabase(cluster.databaseUrl);
  let writes = 0;
  let writing = true;
  const writer = (async () => {
    while (writing) {
      await new Promise((resolve) => setTimeout(resolve, writeEveryMs));
      if (!writing) break;
      const listing = await store.sql.get<{ id: number }>("select id from market_listings where status = 0 order by random() limit 1");
      if (!listing) continue;
      const price = BigInt(1 + Math.floor(Math.random() * 1000)) * 10n ** 18n;
      await store.sql.run("update market_listings set price = ? where id = ?", [padWei(price), listing.id]);
      writes++;
    }
  })();
  try {
    // What visitors open: market views, the items the first view lists, the home, statistics and a player's page.
    const market = await (await fetch(`${cluster.url}/marketplace/market?sort=listed-asc`)).text();
    const items = [...market.matchAll(/href="(\/marketplace\/detail\?[^"]*)"/g)].slice(0, 6).map((m) => m[1]!.replaceAll("&amp;", "&"));
    const paths = [...MARKET_PAGES, ...items, "/home", "/marketplace", "/marketplace/statistics", `/player/${DEMO_BROWSER_ACCOUNT.wallet}`];
    console.log(
      `${paths.length} visitor pages (${MARKET_PAGES.length} market views, ${items.length} items, home, landing, statistics, a player), ` +
        `${concurrency} clients for ${ms / 1000} s each, ${values.processes} server processes; a listing's price changes every ${writeEveryMs / 1000} s`,
    );
    console.log(`this machine: ${os.cpus().length} cores`);
    const cacheUrl = cluster.cacheUrl!;
    // Warm: every process's page cache and nginx's.
    await load(cluster.url, paths, 1_000);
    await load(cacheUrl, paths, 1_000);
    const alone = await load(cluster.url, paths, ms);
    const rendered = await load(cluster.url, paths, ms, UNCACHED);
    const shared = await load(cacheUrl, paths, ms);
    const hits = shared.statuses.HIT ?? 0;
    // A stale copy served while one request renders, or a copy the app said is still good (304): no page rendered.
    const copies = hits + (shared.statuses.UPDATING ?? 0) + (shared.statuses.STALE ?? 0) + (shared.statuses.REVALIDATED ?? 0);
    console.log(`\nvisitor pages (${writes} market changes during the run)`);
    console.log(line("the app alone, its page cache", alone));
    console.log(line("the app alone, rendered (a cookie)", rendered));
    console.log(line("through nginx's proxy_cache", shared));
    console.log(
      `  nginx's hit ratio ${((hits / shared.requests) * 100).toFixed(1)} % (answered from its copy ` +
        `${((copies / shared.requests) * 100).toFixed(1)} %); throughput ${(shared.rate / alone.rate).toFixed(1)}× the app ` +
        `alone (${(shared.rate / rendered.rate).toFixed(1)}× rendered), p95 ${(shared.p95 / alone.p95).toFixed(2)}× the app alone's`,
    );
  } finally {
    writing = false;
    await writer;
    await store.close();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
