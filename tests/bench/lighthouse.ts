/**
 * Lighthouse (issue 17): nine pages of the production server on a fresh demo database, each measured `--runs` times
 * (3) with Lighthouse's default mobile preset (an emulated mid-range phone, simulated slow 4G and 4× CPU slowdown);
 * prints the median of the runs of each figure: performance score, LCP, TBT and CLS. The target is ≥ 98 on every page
 * on a quiet machine: a busy one lowers the scores (the machine's load is printed with them); exit code 1 below it.
 *   npx tsx tests/bench/lighthouse.ts [--runs 3] [--port 3395] [--chain-port 8695] [--debug-port 9335] [--chromium /usr/bin/chromium]
 *     [--only /marketplace/statistics] [--breakdown]
 * `--breakdown` prints, per page, what ran on the main thread while it loaded (Lighthouse's trace of the last run): time
 * by kind of work, each script's evaluation and parse, and every long task with what it ran.
 * Chromium is Debian's, started here with a DevTools port that Lighthouse's Node API drives (nothing is downloaded).
 * Needs a production build (REMIX_BUILD_DIR or build/); one is made when missing.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium";
import { ensureBuild, runDir, startServer, type BenchServer } from "./server";

const TARGET_SCORE = 98;

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    port: { type: "string", default: "3395" },
    "chain-port": { type: "string", default: "8695" },
    "debug-port": { type: "string", default: "9335" },
    chromium: { type: "string", default: CHROMIUM_PATH },
    only: { type: "string", multiple: true },
    breakdown: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const debugPort = Number(values["debug-port"]);

/** The pages of the issue; the detail page's item is the market's first listing. */
function pages(item: { nftType: number; tokenId: string }): string[] {
  return [
    "/home",
    "/game",
    "/marketplace",
    "/marketplace/market",
    `/marketplace/detail?nftType=${item.nftType}&tokenId=${item.tokenId}`,
    "/marketplace/statistics",
    "/loyalty",
    "/lootbox/4",
    "/spaceship/calculator",
  ];
}

/** Debian's Chromium, headless, with a DevTools port for Lighthouse and a profile of its own. */
async function startChromium(): Promise<{ stop(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "bench-lighthouse-"));
  const chromium = spawn(
    values.chromium,
    ["--headless", ...CHROMIUM_ARGS, `--remote-debugging-port=${debugPort}`, `--user-data-dir=${profile}`, "about:blank"],
    { stdio: "ignore", detached: true },
  );
  const exited = once(chromium, "exit");
  const stop = async () => {
    if (chromium.pid && chromium.exitCode === null && chromium.signalCode === null) {
      process.kill(-chromium.pid, "SIGTERM");
      const timer = setTimeout(() => process.kill(-chromium.pid!, "SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    // Its helper processes may still be closing files in the profile (ENOTEMPTY): retry the removal.
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (chromium.exitCode !== null) throw new Error(`chromium exited with ${chromium.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${debugPort}/json/version`)).ok) return { stop };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error("chromium did not open its DevTools port");
}

interface Figures {
  score: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** What ran on the main thread during load, as lines to print (with --breakdown). */
  breakdown: string[];
}

type AuditItems = { details?: { items?: Record<string, unknown>[] } } | undefined;
const itemsOf = (audit: AuditItems) => audit?.details?.items ?? [];
const ms = (value: unknown) => `${Math.round(Number(value))} ms`;
/** A script's URL as its path on the site, or "(inline)" for the document's own scripts. */
const scriptName = (url: unknown, page: string) => {
  const text = String(url);
  if (text === page) return "(the document: inline scripts)";
  return text.startsWith("http") ? new URL(text).pathname : text;
};

/** Main-thread time by kind, each script's cost, and the long tasks (≥ 50 ms, the part TBT counts above 50). */
function breakdownOf(lhr: { audits: Record<string, AuditItems> }, page: string): string[] {
  const lines: string[] = [];
  const kinds = itemsOf(lhr.audits["mainthread-work-breakdown"]).map((item) => `${String(item.groupLabel)} ${ms(item.duration)}`);
  lines.push(`    main thread: ${kinds.join(", ")}`);
  for (const item of itemsOf(lhr.audits["bootup-time"])) {
    lines.push(
      `    script ${scriptName(item.url, page)}: ${ms(item.total)} in all, evaluation ${ms(item.scripting)}, parse and compile ${ms(item.scriptParseCompile)}`,
    );
  }
  // The LCP element's audit holds two tables: the element, then the phases of its time.
  const [element, phases] = itemsOf(lhr.audits["largest-contentful-paint-element"]) as { items?: Record<string, unknown>[] }[];
  const node = element?.items?.[0]?.node as { snippet?: string } | undefined;
  if (node) lines.push(`    LCP element: ${node.snippet ?? "?"}`);
  if (phases?.items?.length)
    lines.push(`    LCP phases: ${phases.items.map((phase) => `${String(phase.phase)} ${ms(phase.timing)}`).join(", ")}`);
  for (const task of itemsOf(lhr.audits["long-tasks"])) {
    lines.push(`    long task at ${ms(task.startTime)}: ${ms(task.duration)}, ${scriptName(task.url, page)}`);
  }
  return lines;
}

/** One Lighthouse run; a run whose trace failed (NO_NAVSTART and the like, on a busy machine) is run again, twice at most. */
async function measure(url: string, attempt = 1): Promise<Figures> {
  const result = await lighthouse(url, { port: debugPort, output: "json", logLevel: "error", onlyCategories: ["performance"] });
  const lhr = result?.lhr;
  const error = lhr ? lhr.runtimeError : { code: "NO_RESULT", message: "no Lighthouse result" };
  if (error) {
    if (attempt < 3) {
      console.log(`  ${url}: ${error.code}, running again`);
      return measure(url, attempt + 1);
    }
    throw new Error(`${url}: ${error.code} ${error.message}`);
  }
  if (!lhr) throw new Error(`${url}: no Lighthouse result`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
    breakdown: values.breakdown ? breakdownOf(lhr as unknown as { audits: Record<string, AuditItems> }, url) : [],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  ensureBuild();
  const servers: BenchServer[] = [];
  let chromium: { stop(): Promise<void> } | undefined;
  try {
    const app = await startServer({
      port: Number(values.port),
      chainPort: Number(values["chain-port"]),
      database: path.join(runDir(`bench-lighthouse-${values.port}`), "spark.db"),
    });
    servers.push(app);
    const market = (await (await fetch(`${app.base}/api/v1/marketplace/tradingMarket?pageSize=1`)).json()) as {
      data: { records: { nftType: number; tokenId: string }[] };
    };
    const item = market.data.records[0];
    if (!item) throw new Error("the demo market has no listing");
    chromium = await startChromium();

    const load = os.loadavg()[0];
    console.log(`Lighthouse ${runs}× per page, mobile preset; load average ${load.toFixed(2)} on ${os.cpus().length} CPUs`);
    const rows: { page: string; figures: Omit<Figures, "breakdown"> }[] = [];
    const chosen = pages(item).filter((page) => !values.only?.length || values.only.some((only) => page.startsWith(only)));
    for (const page of chosen) {
      const measured: Figures[] = [];
      for (let run = 0; run < runs; run++) measured.push(await measure(`${app.base}${page}`));
      const figures = {
        score: median(measured.map((f) => f.score)),
        lcp: median(measured.map((f) => f.lcp)),
        tbt: median(measured.map((f) => f.tbt)),
        cls: median(measured.map((f) => f.cls)),
      };
      rows.push({ page, figures });
      console.log(`  ${page}: ${measured.map((f) => f.score).join(", ")}`);
      for (const line of measured[measured.length - 1].breakdown) console.log(line);
    }

    const width = Math.max(...rows.map((row) => row.page.length));
    console.log(`\nmedian of ${runs} (load average now ${os.loadavg()[0].toFixed(2)}):`);
    console.log(`  ${"page".padEnd(width)}  perf    LCP ms   TBT ms    CLS`);
    for (const { page, figures } of rows) {
      console.log(
        `  ${page.padEnd(width)}  ${String(figures.score).padStart(4)}  ${figures.lcp.toFixed(0).padStart(8)}  ${figures.tbt.toFixed(0).padStart(7)}  ${figures.cls.toFixed(3).padStart(5)}` +
          (figures.score >= TARGET_SCORE ? "" : "  below target"),
      );
    }
    const below = rows.filter((row) => row.figures.score < TARGET_SCORE).length;
    console.log(`  target ≥ ${TARGET_SCORE} on every page (quiet machine): ${below ? `${below} BELOW TARGET` : "ok"}`);
    process.exitCode = below ? 1 : 0;
  } finally {
    // The servers first: a failure to clean Chromium's profile must not leave them running.
    for (const server of servers) server.stop();
    await chromium?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
