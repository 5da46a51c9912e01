/**
 * Market query benchmark (P3): the same filtered and sorted page requests over real HTTP against a market of
 * 10 k and of 1 M active listings, on each engine. Prints mean, p50 and p95 per request at each size and the
 * 1M/10k ratio of the means; exits non-zero when an engine's overall ratio exceeds 2 or a market query plan reads a
 * whole table. After the measures, the PostgreSQL plan of the slowest mix at the largest size (explain analyze).
 *   npx tsx tests/bench/market-query.ts [--sizes 10000,1000000] [--requests 200] [--engines sqlite,postgres] [--files 10000=a.db,…] [--cold]
 *     [--mixes <regex>]
 * --mixes measures only the mixes whose name matches (the overall ratio is then theirs).
 * --cold moves the market's listing generation before each request of a view's numbers or history, as a listing
 * change does, so each is a first computation (its kept answer and the market counts gone), not a kept one.
 * --files measures copies of databases built earlier (their pending migrations run on them) instead of the cache's.
 * SQLite databases are built once with scripts/seed.ts's generator and cached in data/bench/, keyed by a hash of
 * the schema and generator sources, so a rerun only measures. PostgreSQL's are copies of them in a throwaway
 * cluster started for the run (tests/bench/market-pg.ts), made afresh every run (about a minute at 1 M).
 */
import path from "node:path";
import type { AddressInfo } from "node:net";
import { cliOptions } from "../../scripts/cli-options";
import express from "express";
import { startBackends } from "../../backend";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { buildListingSql } from "../../backend/market/listings/query";
import { listingQuerySchema, normalizeQuery } from "../../backend/market/shared/listing-schemas";
import { cachedMarketDb } from "./market-db";
import { copyToPostgres, startBenchCluster, type BenchCluster } from "./market-pg";
import type { Engine } from "../../backend/db/sql";
import { testBackendOptions } from "../backend/harness";

const MAX_RATIO = 2;
const CACHE_DIR = path.resolve("data/bench");

/** Representative market pages: what the marketplace and storage screens ask for. */
const MIXES: [name: string, path: string, query: string][] = [
  ["newest listings", "/marketplace/tradingMarket", ""],
  ["type tab", "/marketplace/tradingMarket", "nftType=2"],
  ["cards by rarity, cheapest", "/marketplace/tradingMarket", "nftType=0&rarity=2,3&sort=price&order=asc"],
  ["cards by camp and levels", "/marketplace/tradingMarket", "nftType=0&camp=1&min[level]=3&max[level]=7"],
  ["cards, levels, FIRE, dearest", "/marketplace/tradingMarket", "nftType=0&min[level]=5&currency=FIRE&sort=price&order=desc"],
  ["ships by rank and total", "/marketplace/tradingMarket", "nftType=4&rank=3,4&min[total]=250&sort=total&order=desc"],
  ["PSE types, newest", "/marketplace/tradingMarket", "nftType=2&type=4,5&pageSize=20"],
  [
    "USDT in a price range",
    "/marketplace/tradingMarket",
    "currency=USDT&min[price]=5000000000000000000&max[price]=200000000000000000000&sort=price",
  ],
  ["legendary boxes, dearest", "/marketplace/tradingMarket", "nftType=6&boxType=7,17&sort=price&order=desc"],
  ["equipment most viewed", "/marketplace/tradingMarket", "nftType=7&equipmentType=3,4&sort=views"],
  ["page 5 of a tab", "/marketplace/tradingMarket", "nftType=0&pageNumber=5&pageSize=20"],
  // Issue 30: the numbers at the top of a view and its price history (decision 0022).
  ["numbers of the whole market", "/marketplace/viewNumbers", ""],
  ["numbers of cards by rarity", "/marketplace/viewNumbers", "nftType=0&rarity=2,3"],
  ["numbers of cards by camp and levels", "/marketplace/viewNumbers", "nftType=0&camp=1&min[level]=3&max[level]=7"],
  ["history of cards by rarity, 30 d", "/marketplace/priceHistory", "nftType=0&rarity=2,3"],
  ["history of the whole market, all", "/marketplace/priceHistory", "period=all"],
  ["a wallet's storage", "/informationCenter/myStorage", `address=${DEMO_BROWSER_ACCOUNT.wallet}&pageSize=20`],
  ["a wallet's sales", "/informationCenter/selling", `address=${DEMO_BROWSER_ACCOUNT.wallet}`],
];

type Backend = Awaited<ReturnType<typeof startBackends>>;

/** The page and count statements of a market mix, as the engine runs them. */
function mixSql(query: string, engine: Engine) {
  const q = listingQuerySchema.parse(normalizeQuery(Object.fromEntries(new URLSearchParams(query))));
  const sql = buildListingSql({ kind: "market" }, q, engine);
  return [
    ["page", sql.page, sql.pageParams],
    ["count", sql.count, sql.countParams],
  ] as const;
}

/** A statement's plan, one line per node (`explain`, or `explain analyze` on PostgreSQL when `analyze`). */
async function plan(backend: Backend, text: string, params: readonly unknown[], analyze = false): Promise<string[]> {
  if (backend.store.sqlite) {
    return (backend.store.sqlite.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[]).map((row) => row.detail);
  }
  const rows = await backend.store.sql.all<{ "QUERY PLAN": string }>(`explain ${analyze ? "analyze " : ""}${text}`, params);
  return rows.map((row) => row["QUERY PLAN"]);
}

/**
 * Market queries must walk an index in order: no full table scan, no sort of every match (SQLite's temp b-tree;
 * PostgreSQL's plans are reported when they scan a whole table). PostgreSQL's planner rightly reads a small table
 * whole (a count at 10 k listings), so its plans are only checked from `PG_PLAN_CHECK_FROM` listings.
 */
const PG_PLAN_CHECK_FROM = 100_000;

async function checkPlans(backend: Backend, listings: number): Promise<string[]> {
  if (backend.store.engine === "postgres" && listings < PG_PLAN_CHECK_FROM) return [];
  const problems: string[] = [];
  for (const [name, route, query] of MIXES) {
    if (route !== "/marketplace/tradingMarket") continue;
    for (const [label, text, params] of mixSql(query, backend.store.engine)) {
      const lines = await plan(backend, text, params);
      // A capped count (`limit RESULT_WINDOW + 1`) may read the table in order until it has enough: PostgreSQL picks
      // that when matches are dense, and it stops after a bounded number of rows whatever the table's size.
      const capped = (index: number) => lines.slice(0, index).some((above) => /\bLimit\b/.test(above));
      const bad = lines.filter(
        (line, index) =>
          /^SCAN (l|i)$/.test(line) ||
          (label === "page" && /TEMP B-TREE FOR ORDER BY/.test(line)) ||
          (/Seq Scan on market_(listings|items)/.test(line) && !(label === "count" && capped(index))),
      );
      if (bad.length) problems.push(`${name} (${label}): ${lines.map((line) => line.trim()).join(" | ")}`);
    }
  }
  return problems;
}

interface Stats {
  mean: number;
  p50: number;
  p95: number;
}

/** One market database on `engine` served over HTTP on a free port. */
async function serve(listings: number, engine: Engine, cluster: BenchCluster | null, files: Map<number, string>) {
  const file = files.get(listings) ?? (await cachedMarketDb(CACHE_DIR, listings));
  let target = file;
  if (engine === "postgres") {
    target = await cluster!.createDatabase(`market_${listings}`);
    const started = performance.now();
    console.log(`copying ${listings.toLocaleString("en")} listings to PostgreSQL …`);
    await copyToPostgres(file, target);
    console.log(`copied in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const backend = await startBackends(target, testBackendOptions);
  const app = express();
  app.use(backend.router);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    size: listings,
    engine,
    backend,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    problems: await checkPlans(backend, listings),
    results: new Map<string, Stats>(),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await backend.close();
    },
  };
}

async function timeRequest(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  const body = (await response.json()) as { success: boolean; msg: string };
  if (!body.success) throw new Error(`${url}: ${body.msg}`);
  return performance.now() - started;
}

/**
 * Requests to the sizes alternate, so whatever else the (shared) machine is doing weighs on both alike.
 */
async function measure(runs: Awaited<ReturnType<typeof serve>>[], requests: number, cold: boolean, mixes: RegExp) {
  for (const [name, route, query] of MIXES.filter(([name]) => mixes.test(name))) {
    const urls = runs.map((run) => `${run.base}${route}?${query}`);
    const change = cold && /viewNumbers|priceHistory/.test(route);
    const time = async (r: number) => {
      if (change) await runs[r].backend.store.sql.run("update market_listing_generation_slots set value = value + 1 where slot = 0");
      return await timeRequest(urls[r]);
    };
    for (let i = 0; i < 20; i++) for (let r = 0; r < runs.length; r++) await time(r);
    const times = runs.map((): number[] => []);
    for (let i = 0; i < requests; i++) {
      for (let r = 0; r < runs.length; r++) times[r].push(await time(r));
    }
    runs.forEach((run, r) => {
      const sorted = times[r].sort((a, b) => a - b);
      run.results.set(name, {
        mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
        p50: sorted[Math.floor(sorted.length * 0.5)],
        p95: sorted[Math.floor(sorted.length * 0.95)],
      });
    });
  }
}

type Run = Awaited<ReturnType<typeof serve>>;

/** Prints one engine's table; whether it met P3 and every plan was fine. */
function report(engine: Engine, runs: Run[], requests: number): boolean {
  const [small, large] = [runs[0], runs[runs.length - 1]];
  const ms = (value: number) => value.toFixed(2).padStart(7);
  console.log(`\n${engine}: per request over HTTP, ${requests} requests per mix after warm-up (ms):`);
  console.log(`${"mix".padEnd(32)}${runs.map((r) => `${r.size.toLocaleString("en").padStart(10)}   mean    p50    p95`).join("")}   ratio`);
  for (const [name] of MIXES.filter(([name]) => large.results.has(name))) {
    const cells = runs
      .map((r) => {
        const s = r.results.get(name)!;
        return `${ms(s.mean)}${ms(s.p50)}${ms(s.p95)}`.padStart(31);
      })
      .join("");
    console.log(`${name.padEnd(32)}${cells}   ${(large.results.get(name)!.mean / small.results.get(name)!.mean).toFixed(2)}`);
  }
  const overall = (run: Run) => [...run.results.values()].reduce((sum, s) => sum + s.mean, 0) / run.results.size;
  const ratio = overall(large) / overall(small);
  console.log(`${"all mixes (mean)".padEnd(32)}${runs.map((r) => ms(overall(r)).padStart(31)).join("")}   ${ratio.toFixed(2)}`);

  let ok = true;
  for (const run of runs) {
    for (const problem of run.problems) {
      console.error(`${engine} plan at ${run.size}: ${problem}`);
      ok = false;
    }
  }
  if (runs.length > 1 && ratio > MAX_RATIO) {
    console.error(
      `FAIL (${engine}): mean time per page grew ${ratio.toFixed(2)}× from ${small.size} to ${large.size} listings (limit ${MAX_RATIO}×)`,
    );
    ok = false;
  } else if (runs.length > 1) {
    console.log(
      `OK (${engine}): ${large.size.toLocaleString("en")} / ${small.size.toLocaleString("en")} listings = ${ratio.toFixed(2)}× (limit ${MAX_RATIO}×)`,
    );
  }
  return ok;
}

/** The PostgreSQL plan of the slowest market mix at the largest size, executed. */
async function explainSlowest(run: Run) {
  const measured = MIXES.filter(([name, route]) => route === "/marketplace/tradingMarket" && run.results.has(name));
  if (!measured.length) return;
  const [name, , query] = measured.reduce((a, b) => (run.results.get(a[0])!.mean >= run.results.get(b[0])!.mean ? a : b));
  console.log(`\n${run.engine} at ${run.size.toLocaleString("en")}: slowest market mix "${name}", explain analyze:`);
  for (const [label, text, params] of mixSql(query, run.engine)) {
    console.log(`  ${label}:`);
    for (const line of await plan(run.backend, text, params, true)) console.log(`    ${line}`);
  }
}

async function main() {
  const values = cliOptions({ sizes: "10000,1000000", requests: "200", engines: "sqlite,postgres", files: "", cold: false, mixes: "" });
  const sizes = values.sizes!.split(",").map(Number);
  const requests = Number(values.requests);
  const engines = values.engines!.split(",") as Engine[];
  const files = new Map(
    values
      .files!.split(",")
      .filter(Boolean)
      .map((entry) => entry.split("=") as [string, string])
      .map(([size, file]) => [Number(size), path.resolve(file)]),
  );
  let failed = false;
  for (const engine of engines) {
    const cluster = engine === "postgres" ? await startBenchCluster() : null;
    const runs: Run[] = [];
    try {
      for (const size of sizes) runs.push(await serve(size, engine, cluster, files));
      await measure(runs, requests, values.cold!, new RegExp(values.mixes!));
      if (!report(engine, runs, requests)) failed = true;
      if (engine === "postgres") await explainSlowest(runs[runs.length - 1]);
    } finally {
      for (const run of runs) await run.close();
      await cluster?.stop();
    }
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
