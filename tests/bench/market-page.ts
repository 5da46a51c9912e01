/**
 * Market page benchmark (issue 17): requests per second and p95 of filtered /marketplace/market pages on a market of
 * 100 k listings, with 8 clients in a bounded closed loop on 127.0.0.1, measured side by side in alternating rounds:
 * - floor: the trivial page of tests/bench/floor, a Remix build with no root loader and no layout, served by the same
 *   server.ts (every middleware) in a second process: what any page costs at least;
 * - layout page: /marketplace/detail with no item, the app's root loader and layout with no data of its own (the
 *   reference of the first figure), rendered for every request (a cookie: since decision 0033 a visitor's
 *   copy of this page comes from the page cache, which would measure the cache, not the layout);
 * - market, uncached: the filtered pages rendered for every request (each request carries a cookie, which the page
 *   cache never answers): loader, backend query and render;
 * - market, cached: the same pages for visitors (no cookie), answered by the page cache (server/page-cache.ts) while
 *   the market's page generation stands still; the server names every answer's origin, and the bench checks that
 *   each was a hit and that a cached page is the rendered one, byte for byte but for the CSP nonce;
 * - /healthz: Express alone, for reference.
 * Prints each one's rate and p95 (median of the rounds) and the ratios to the floor and to the layout page.
 * The target (≥ 0.5× the floor with p95 < 50 ms) is checked on the pages visitors get (cached); exit code 1 when missed.
 * Each engine in turn (--engines): on PostgreSQL the app server runs with DATABASE_URL on a copy of the same market
 * in a throwaway cluster (tests/bench/market-pg.ts), on its own ports; the floor is the same server for both.
 *   npx tsx tests/bench/market-page.ts [--listings 100000] [--seconds 4] [--rounds 3] [--concurrency 8]
 *     [--engines sqlite,postgres] [--port 3391] [--chain-port 8691] [--pg-port 3393] [--pg-chain-port 8693]
 *     [--floor-port 3397] [--floor-chain-port 8697]
 * The market database is built once with scripts/seed.ts's generator and cached in data/bench-market/ (keyed by a
 * hash of the schema and generator sources); each run starts the production server on a fresh copy of it.
 * After the rounds it measures each filtered page alone, uncached, to show which query costs what.
 * Needs a production build (REMIX_BUILD_DIR or build/); one is made when missing. The floor is built every run.
 */
import fs from "node:fs";
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import { cachedMarketDb } from "./market-db";
import { copyToPostgres, startBenchCluster } from "./market-pg";
import type { Engine } from "../../backend/db/sql";
import { buildFloor, ensureBuild, runDir, startServer, type BenchServer } from "./server";
import { closedLoop as closedLoopOf, MARKET_PAGES, median, type Result, type Target, UNCACHED } from "./load";

const TARGET_RATIO = 0.5;
const TARGET_P95_MS = 50;
const CACHE_DIR = path.resolve("data/bench-market");

const LAYOUT_PAGE = "/marketplace/detail";
const HEALTH = "/healthz";

const values = cliOptions({
  listings: "100000",
  seconds: "4",
  rounds: "3",
  concurrency: "8",
  engines: "sqlite,postgres",
  port: "3391",
  "chain-port": "8691",
  "pg-port": "3393",
  "pg-chain-port": "8693",
  "floor-port": "3397",
  "floor-chain-port": "8697",
});
const listings = Number(values.listings);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);

/** The clients of this bench: `concurrency` of them. */
const closedLoop = (target: Target, ms: number) => closedLoopOf(target, ms, concurrency);
// A cached page carries no nonce at all (decision 0033: its inline scripts' hashes go in its CSP).
const withoutNonce = (html: string) => html.replace(/ nonce="[0-9a-f]{32}"/g, "").replace(/[0-9a-f]{32}/g, "NONCE");

/** Every market page is a real, filtered result page, and its cached copy is the page rendered. */
async function checkPages(base: string) {
  for (const page of MARKET_PAGES) {
    const rendered = await fetch(`${base}${page}`, { redirect: "manual", headers: UNCACHED });
    const html = await rendered.text();
    const shown = /Showing 1–\d+ of ([\d,]+)\+? items/.exec(html);
    if (rendered.status !== 200 || !shown) throw new Error(`${page}: status ${rendered.status}, no results`);
    if (rendered.headers.has("x-page-cache")) throw new Error(`${page}: a request with a cookie met the page cache`);
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}${page}`, { redirect: "manual" });
      answers.push({ cache: response.headers.get("x-page-cache"), html: await response.text() });
    }
    if (answers[1].cache !== "hit") throw new Error(`${page}: the second visit was not a cache hit (${answers[1].cache})`);
    if (withoutNonce(answers[1].html) !== withoutNonce(html)) throw new Error(`${page}: the cached page differs from the rendered one`);
    console.log(`${page}\n  ${shown[1]} matches`);
  }
}

/** The rounds against one app server (and the floor); whether the cached pages met the target. */
async function measure(engine: Engine, app: BenchServer, floor: BenchServer): Promise<boolean> {
  console.log(`\n== ${engine}`);
  await checkPages(app.base);

  const targets = {
    floor: { base: floor.base, paths: ["/"] },
    layout: { base: app.base, paths: [LAYOUT_PAGE], headers: UNCACHED, expect: null },
    uncached: { base: app.base, paths: MARKET_PAGES, headers: UNCACHED, expect: null },
    cached: { base: app.base, paths: MARKET_PAGES, expect: "hit" },
    healthz: { base: app.base, paths: [HEALTH] },
  } satisfies Record<string, Target>;
  type Name = keyof typeof targets;
  const names = Object.keys(targets) as Name[];
  const results = Object.fromEntries(names.map((name) => [name, [] as Result[]])) as Record<Name, Result[]>;
  // Warm up the JIT, the page cache and the database's cache.
  for (const name of names) await closedLoop(targets[name], 1000);
  for (let round = 1; round <= rounds; round++) {
    for (const name of names) {
      const result = await closedLoop(targets[name], seconds * 1000);
      results[name].push(result);
      console.log(
        `round ${round} ${name.padEnd(8)} ${result.rate.toFixed(1).padStart(8)} req/s  p95 ${result.p95.toFixed(1).padStart(6)} ms  ${(result.bytes / result.requests / 1024).toFixed(1)} KB/page`,
      );
    }
  }
  // Each filtered page on its own, rendered, so a slow one shows which query it is.
  console.log("\nper page, uncached:");
  for (const page of MARKET_PAGES) {
    const result = await closedLoop({ base: app.base, paths: [page], headers: UNCACHED }, seconds * 1000);
    console.log(`  ${result.rate.toFixed(1).padStart(7)} req/s  p95 ${result.p95.toFixed(1).padStart(6)} ms  ${page}`);
  }

  const rate = (name: Name) => median(results[name].map((r) => r.rate));
  const p95 = (name: Name) => median(results[name].map((r) => r.p95));
  const line = (label: string, name: Name) =>
    `  ${label.padEnd(34)} ${rate(name).toFixed(1).padStart(8)} req/s  p95 ${p95(name).toFixed(1).padStart(6)} ms` +
    (name === "floor"
      ? ""
      : `  ${(rate(name) / rate("floor")).toFixed(2)}× floor  ${(rate(name) / rate("layout")).toFixed(2)}× layout page`);
  const meets = (name: Name) => rate(name) / rate("floor") >= TARGET_RATIO && p95(name) < TARGET_P95_MS;
  console.log(
    `\n${engine}, ${listings.toLocaleString("en")} listings, ${concurrency} clients, median of ${rounds} rounds of ${seconds} s:`,
  );
  console.log(line("floor (bare Remix page)", "floor"));
  console.log(line(`layout page, rendered`, "layout"));
  console.log(line("market pages, uncached (rendered)", "uncached"));
  console.log(line("market pages, cached (visitors)", "cached"));
  console.log(line(`${HEALTH} (Express only)`, "healthz"));
  console.log(`  target: ≥ ${TARGET_RATIO}× the floor and p95 < ${TARGET_P95_MS} ms`);
  console.log(`    market pages for visitors (cached): ${meets("cached") ? "ok" : "BELOW TARGET"}`);
  console.log(`    market pages rendered (uncached): ${meets("uncached") ? "ok" : "below target"} (for information)`);
  return meets("cached");
}

/** A fresh copy of the market for one engine's app server: the SQLite file, or a PostgreSQL database. */
async function marketCopy(engine: Engine, source: string, port: string, cluster: Awaited<ReturnType<typeof startBenchCluster>> | null) {
  // The server keeps its local chain beside DATABASE_PATH, on either engine.
  const marketDir = path.join(CACHE_DIR, `run-${port}`);
  fs.rmSync(marketDir, { recursive: true, force: true });
  fs.mkdirSync(marketDir, { recursive: true });
  const database = path.join(marketDir, "spark.db");
  if (engine === "sqlite") {
    fs.copyFileSync(source, database);
    return { database, env: {} as Record<string, string> };
  }
  const url = await cluster!.createDatabase(`market_page_${listings}`);
  const started = performance.now();
  await copyToPostgres(source, url);
  console.log(`copied ${listings.toLocaleString("en")} listings to PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { database, env: { DATABASE_URL: url } };
}

async function main() {
  ensureBuild();
  const floorBuild = buildFloor();
  const source = await cachedMarketDb(CACHE_DIR, listings);
  const engines = values.engines!.split(",") as Engine[];
  const cluster = engines.includes("postgres") ? await startBenchCluster() : null;

  const servers: BenchServer[] = [];
  let ok = true;
  try {
    const floor = await startServer({
      port: Number(values["floor-port"]),
      chainPort: Number(values["floor-chain-port"]),
      database: path.join(runDir(`bench-floor-run-${values["floor-port"]}`), "spark.db"),
      buildDir: floorBuild,
    });
    servers.push(floor);
    for (const engine of engines) {
      const [port, chainPort] =
        engine === "sqlite" ? [values.port!, values["chain-port"]!] : [values["pg-port"]!, values["pg-chain-port"]!];
      const { database, env } = await marketCopy(engine, source, port, cluster);
      const app = await startServer({ port: Number(port), chainPort: Number(chainPort), database, env: { PAGE_CACHE: "report", ...env } });
      // Stopped here, not with the floor: a second SIGTERM to its process group would fail (ESRCH).
      try {
        if (!(await measure(engine, app, floor))) ok = false;
      } finally {
        app.stop();
      }
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const server of servers) server.stop();
    await cluster?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
