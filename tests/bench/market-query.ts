/**
 * Market query benchmark: the same filtered and sorted page requests over real HTTP against a market of
 * 10 k and of 1 M active listings. Prints mean and p95 per request at each size and the 1M/10k ratio;
 * exits non-zero when the overall ratio exceeds 2 or a market query plan reads a whole table.
 *   npx tsx tests/bench/market-query.ts [--sizes 10000,1000000] [--requests 200]
 * Databases are built once with scripts/seed.ts's generator and cached in data/bench/, keyed by a hash of
 * the schema and generator sources, so a rerun only measures.
 */
import path from "node:path";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import express from "express";
import { startBackends } from "../../backend";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { buildListingSql } from "../../backend/market/query";
import { listingQuerySchema, normalizeQuery } from "../../backend/market/listing-schemas";
import { cachedMarketDb } from "./market-db";
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
  ["a wallet's storage", "/informationCenter/myStorage", `address=${DEMO_BROWSER_ACCOUNT.wallet}&pageSize=20`],
  ["a wallet's sales", "/informationCenter/selling", `address=${DEMO_BROWSER_ACCOUNT.wallet}`],
];

/** Market queries must walk an index in order: no full table scan, no sort of every match. */
function checkPlans(backend: Awaited<ReturnType<typeof startBackends>>): string[] {
  const problems: string[] = [];
  for (const [name, route, query] of MIXES) {
    if (route !== "/marketplace/tradingMarket") continue;
    const q = listingQuerySchema.parse(normalizeQuery(Object.fromEntries(new URLSearchParams(query))));
    const sql = buildListingSql({ kind: "market" }, q);
    for (const [label, text, params] of [
      ["page", sql.page, sql.pageParams],
      ["count", sql.count, sql.countParams],
    ] as const) {
      const plan = (backend.store.sqlite!.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[]).map(
        (row) => row.detail,
      );
      const bad = plan.filter((line) => /^SCAN (l|i)$/.test(line) || (label === "page" && /TEMP B-TREE FOR ORDER BY/.test(line)));
      if (bad.length) problems.push(`${name} (${label}): ${plan.join(" | ")}`);
    }
  }
  return problems;
}

interface Stats {
  mean: number;
  p95: number;
}

/** One market database served over HTTP on a free port. */
async function serve(listings: number) {
  const file = await cachedMarketDb(CACHE_DIR, listings);
  const backend = await startBackends(file, testBackendOptions);
  const app = express();
  app.use(backend.router);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    size: listings,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    problems: checkPlans(backend),
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
async function measure(runs: Awaited<ReturnType<typeof serve>>[], requests: number) {
  for (const [name, route, query] of MIXES) {
    const urls = runs.map((run) => `${run.base}${route}?${query}`);
    for (let i = 0; i < 20; i++) for (const url of urls) await timeRequest(url);
    const times = runs.map((): number[] => []);
    for (let i = 0; i < requests; i++) {
      for (let r = 0; r < runs.length; r++) times[r].push(await timeRequest(urls[r]));
    }
    runs.forEach((run, r) => {
      const sorted = times[r].sort((a, b) => a - b);
      run.results.set(name, { mean: sorted.reduce((a, b) => a + b, 0) / sorted.length, p95: sorted[Math.floor(sorted.length * 0.95)] });
    });
  }
}

async function main() {
  const { values } = parseArgs({
    options: { sizes: { type: "string", default: "10000,1000000" }, requests: { type: "string", default: "200" } },
  });
  const sizes = values.sizes!.split(",").map(Number);
  const requests = Number(values.requests);
  const runs: Awaited<ReturnType<typeof serve>>[] = [];
  for (const size of sizes) runs.push(await serve(size));
  try {
    await measure(runs, requests);
  } finally {
    for (const run of runs) await run.close();
  }

  const [small, large] = [runs[0], runs[runs.length - 1]];
  const ms = (value: number) => value.toFixed(2).padStart(7);
  console.log(`\nper request over HTTP, ${requests} requests per mix after warm-up (ms):`);
  console.log(`${"mix".padEnd(32)}${runs.map((r) => `${r.size.toLocaleString("en").padStart(10)} mean    p95`).join("")}   ratio`);
  for (const [name] of MIXES) {
    const cells = runs.map((r) => `${ms(r.results.get(name)!.mean)}${ms(r.results.get(name)!.p95)}`.padStart(22)).join("");
    console.log(`${name.padEnd(32)}${cells}   ${(large.results.get(name)!.mean / small.results.get(name)!.mean).toFixed(2)}`);
  }
  const overall = (run: (typeof runs)[number]) => [...run.results.values()].reduce((sum, s) => sum + s.mean, 0) / run.results.size;
  const ratio = overall(large) / overall(small);
  console.log(`${"all mixes".padEnd(32)}${runs.map((r) => ms(overall(r)).padStart(22)).join("")}   ${ratio.toFixed(2)}`);

  let failed = false;
  for (const run of runs) {
    for (const problem of run.problems) {
      console.error(`plan at ${run.size}: ${problem}`);
      failed = true;
    }
  }
  if (runs.length > 1 && ratio > MAX_RATIO) {
    console.error(
      `\nFAIL: mean time per page grew ${ratio.toFixed(2)}× from ${small.size} to ${large.size} listings (limit ${MAX_RATIO}×)`,
    );
    failed = true;
  } else if (runs.length > 1) {
    console.log(
      `\nOK: ${large.size.toLocaleString("en")} / ${small.size.toLocaleString("en")} listings = ${ratio.toFixed(2)}× (limit ${MAX_RATIO}×)`,
    );
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
