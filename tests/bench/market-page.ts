/**
 * Market page benchmark: requests per second of filtered /marketplace/market pages on a market of 100 k listings,
 * against a bare page of the same server (and, for reference, the Express-only /healthz), measured side by side in
 * alternating rounds with a bounded closed loop on 127.0.0.1. Prints both rates and their ratio; target ≥ 0.5×.
 *   npx tsx tests/bench/market-page.ts [--listings 100000] [--seconds 4] [--rounds 3] [--concurrency 8] [--port 3391]
 * The market database is built once with scripts/seed.ts's generator and cached in data/bench-market/ (keyed by a
 * hash of the schema and generator sources); each run starts the production server on a fresh copy of it.
 * After the alternating rounds it measures each filtered page alone, to show which query costs what.
 * Needs a production build (REMIX_BUILD_DIR or build/); one is made when missing.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { cachedMarketDb } from "./market-db";

const TARGET_RATIO = 0.5;
const CACHE_DIR = path.resolve("data/bench-market");

/** What people filter by: four to five filters and a sort each (the codec's canonical URLs). */
const MARKET_PAGES = [
  "/marketplace/market?nftType=0&camp=1,2&rarity=0,1&level=1,8&currency=FIRE&sort=price-asc",
  "/marketplace/market?nftType=4&camp=0&rank=3,4&total=250,&sort=total-desc",
  "/marketplace/market?nftType=7&equipmentType=2,3&level=3,7&sort=views-desc",
  "/marketplace/market?nftType=2&pse=4,5&level=2,&currency=QUARK&pageSize=20",
];
/** The same layout (root loader, header, marketplace tabs) with no data of its own: what the market adds is measured. */
const BARE_PAGE = "/marketplace/detail";
const HEALTH = "/healthz";

const { values } = parseArgs({
  options: {
    listings: { type: "string", default: "100000" },
    seconds: { type: "string", default: "4" },
    rounds: { type: "string", default: "3" },
    concurrency: { type: "string", default: "8" },
    port: { type: "string", default: "3391" },
    "chain-port": { type: "string", default: "8691" },
  },
});
const listings = Number(values.listings);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;

function ensureBuild() {
  const dir = process.env.REMIX_BUILD_DIR ?? "build";
  if (fs.existsSync(path.join(dir, "index.js"))) return;
  console.log(`no build in ${dir}: building …`);
  const result = spawnSync("npx", ["remix", "build"], { stdio: "inherit", env: process.env });
  if (result.status !== 0) throw new Error("remix build failed");
}

async function startServer(database: string): Promise<ChildProcess> {
  const server = spawn("npx", ["tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_PATH: database,
      CHAIN_PORT: values["chain-port"],
      REQUEST_LOG: "off",
      // The loop is one client address; the limits are not what is measured.
      RATE_LIMIT_MULTIPLIER: "1000000",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  server.stdout!.on("data", (chunk) => (output += chunk));
  server.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${output}`);
    try {
      if ((await fetch(`${base}${HEALTH}`)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not start:\n${output}`);
}

function stopServer(server: ChildProcess) {
  // Its own process group: tsx, node and the local chain it started.
  if (server.pid) process.kill(-server.pid, "SIGTERM");
}

/** `concurrency` clients, each sending its next request when the last one is answered, for `ms`. */
async function closedLoop(paths: string[], ms: number): Promise<{ rate: number; requests: number; bytes: number; p95: number }> {
  const end = performance.now() + ms;
  const latencies: number[] = [];
  let bytes = 0;
  let next = 0;
  async function client() {
    while (performance.now() < end) {
      const url = `${base}${paths[next++ % paths.length]}`;
      const started = performance.now();
      const response = await fetch(url, { redirect: "manual" });
      const body = await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      latencies.push(performance.now() - started);
      bytes += body.byteLength;
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    rate: (latencies.length / elapsed) * 1000,
    requests: latencies.length,
    bytes,
    p95: latencies[Math.floor(latencies.length * 0.95)] ?? 0,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  ensureBuild();
  const source = await cachedMarketDb(CACHE_DIR, listings);
  const runDir = path.join(CACHE_DIR, `run-${port}`);
  fs.rmSync(runDir, { recursive: true, force: true });
  fs.mkdirSync(runDir, { recursive: true });
  const database = path.join(runDir, "spark.db");
  fs.copyFileSync(source, database);

  const server = await startServer(database);
  try {
    // Every market page must be a real, filtered result page (canonical, so no redirect is measured).
    for (const page of MARKET_PAGES) {
      const response = await fetch(`${base}${page}`, { redirect: "manual" });
      const html = await response.text();
      const shown = /Showing 1–\d+ of ([\d,]+)\+? items/.exec(html);
      if (response.status !== 200 || !shown) throw new Error(`${page}: status ${response.status}, no results`);
      console.log(`${page}\n  ${shown[1]} matches`);
    }
    const targets = { bare: [BARE_PAGE], market: MARKET_PAGES, healthz: [HEALTH] } as const;
    const rates: Record<keyof typeof targets, number[]> = { bare: [], market: [], healthz: [] };
    const p95: Record<keyof typeof targets, number[]> = { bare: [], market: [], healthz: [] };
    // Warm up the JIT, the page cache and SQLite's cache.
    await closedLoop(MARKET_PAGES, 1500);
    await closedLoop([BARE_PAGE], 1500);
    for (let round = 1; round <= rounds; round++) {
      for (const name of ["bare", "market", "healthz"] as const) {
        const result = await closedLoop([...targets[name]], seconds * 1000);
        rates[name].push(result.rate);
        p95[name].push(result.p95);
        console.log(
          `round ${round} ${name.padEnd(7)} ${result.rate.toFixed(1).padStart(8)} req/s  p95 ${result.p95.toFixed(1)} ms  ${(result.bytes / result.requests / 1024).toFixed(1)} KB/page`,
        );
      }
    }
    // Each filtered page on its own, so a slow one shows which query it is.
    console.log("\nper page:");
    for (const page of MARKET_PAGES) {
      const result = await closedLoop([page], seconds * 1000);
      console.log(`  ${result.rate.toFixed(1).padStart(7)} req/s  p95 ${result.p95.toFixed(1).padStart(6)} ms  ${page}`);
    }
    const bare = median(rates.bare);
    const market = median(rates.market);
    const ratio = market / bare;
    console.log(`\n${listings.toLocaleString("en")} listings, ${concurrency} clients, median of ${rounds} rounds of ${seconds} s:`);
    console.log(`  bare page ${BARE_PAGE}: ${bare.toFixed(1)} req/s (p95 ${median(p95.bare).toFixed(1)} ms)`);
    console.log(`  filtered market pages: ${market.toFixed(1)} req/s (p95 ${median(p95.market).toFixed(1)} ms)`);
    console.log(`  ${HEALTH} (Express only, for reference): ${median(rates.healthz).toFixed(1)} req/s`);
    console.log(`  ratio market / bare: ${ratio.toFixed(2)}× (target ≥ ${TARGET_RATIO}×) ${ratio >= TARGET_RATIO ? "ok" : "BELOW TARGET"}`);
    process.exitCode = ratio >= TARGET_RATIO ? 0 : 1;
  } finally {
    stopServer(server);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
