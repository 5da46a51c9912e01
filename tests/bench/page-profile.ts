/**
 * Where a page's server CPU goes (issue 44, item 2): the market bench's floor, layout page and rendered market pages,
 * each served alone under the inspector's CPU sampler (tests/bench/profiled-server.ts) while 8 clients load it. First
 * a quiet window measures what the server does with no request (the embedded backends' indexer, executor and
 * timers), which is taken off; then the load. Prints each page's CPU per request, split by where the samples fall,
 * and keeps each profile in data/bench-profile/ for Chrome DevTools.
 *   npx tsx tests/bench/page-profile.ts [--pages floor,layout,market] [--seconds 10] [--port 3395] [--chain-port 8695]
 * A sample counts for the first category of the list below that its stack holds (so React called by Remix counts as
 * React). Read the split, not the total, on a shared machine: contention moves the total.
 */
import fs from "node:fs";
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import { cachedMarketDb } from "./market-db";
import { closedLoop, MARKET_PAGES, UNCACHED, type Target } from "./load";
import { buildFloor, ensureBuild, runDir, startServer } from "./server";

const values = cliOptions({ pages: "floor,layout,market", seconds: "10", port: "3395", "chain-port": "8695" });
const seconds = Number(values.seconds);
const OUT = path.resolve("data/bench-profile");

const PAGES: Record<string, { paths: string[]; floor?: true }> = {
  floor: { paths: ["/"], floor: true },
  layout: { paths: ["/marketplace/detail"] },
  market: { paths: MARKET_PAGES },
};

/** Categories, first match wins; each tests a frame's function name and script URL. */
const CATEGORIES: [string, (fn: string, url: string) => boolean][] = [
  ["garbage collection", (fn) => fn === "(garbage collector)"],
  ["gzip (compression)", (_, url) => url.includes("node:zlib") || url.includes("/compression/")],
  ["React render", (_, url) => /node_modules\/(react-dom|react)\//.test(url)],
  ["loader data encoding", (_, url) => url.includes("/turbo-stream/")],
  ["SQL", (_, url) => /node_modules\/(better-sqlite3|kysely|pg)\//.test(url) || url.endsWith("backend/db/sql.ts")],
  ["embedded backends", (_, url) => url.includes("/backend/")],
  ["app loaders and views", (_, url) => /\/build\/index\.js|bench-floor\/index\.js/.test(url)],
  ["Remix and its router", (_, url) => /node_modules\/(@remix-run|react-router|react-router-dom)\//.test(url)],
  ["pino-http", (_, url) => /node_modules\/pino/.test(url)],
  [
    "Express and our middleware",
    (_, url) => url.includes("/node_modules/express/") || url.includes("/server/") || url.endsWith("/server.ts"),
  ],
  ["HTTP and sockets", (_, url) => /node:(_http|net|internal\/stream_base)/.test(url)],
];

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Milliseconds of CPU per category (and "other"), idle left out, from the profile's own sample times. */
function split(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const categoryOf = new Map<number, string | null>();
  function category(id: number): string | null {
    if (categoryOf.has(id)) return categoryOf.get(id)!;
    const frames: { functionName: string; url: string }[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at)!.callFrame);
    const leaf = frames[0].functionName;
    const found =
      leaf === "(idle)" || leaf === "(program)"
        ? null
        : (CATEGORIES.find(([, test]) => frames.some((frame) => test(frame.functionName, frame.url)))?.[0] ?? "other");
    categoryOf.set(id, found);
    return found;
  }
  const ms = new Map<string, number>();
  // timeDeltas[i] is the time before sample i; the time a sample stands for is the next one's delta.
  profile.samples.forEach((id, i) => {
    const name = category(id);
    const us = profile.timeDeltas[i + 1] ?? 0;
    if (name) ms.set(name, (ms.get(name) ?? 0) + us / 1000);
  });
  return ms;
}

/** Profiles the server while `work` runs (its count: requests, or ms for a quiet window); keeps it as `saveAs`. */
async function profileWindow(
  { pidFile, file }: Profiled,
  saveAs: string,
  work: () => Promise<number>,
): Promise<{ ms: Map<string, number>; count: number }> {
  const pid = Number(fs.readFileSync(pidFile, "utf8"));
  fs.rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  const count = await work();
  process.kill(pid, "SIGUSR2");
  for (let waited = 0; !fs.existsSync(file); waited += 100) {
    if (waited > 30_000) throw new Error(`no profile written to ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  fs.renameSync(file, saveAs);
  return { ms: split(JSON.parse(fs.readFileSync(saveAs, "utf8")) as CpuProfile), count };
}

/** Where the profiled server's pid is, and where it writes a profile. */
interface Profiled {
  pidFile: string;
  file: string;
}

fs.mkdirSync(OUT, { recursive: true });
const build = ensureBuild();
const database = await cachedMarketDb(path.resolve("data/bench-market"), 100_000);
const rows: { page: string; perRequest: Map<string, number> }[] = [];
for (const page of values.pages.split(",")) {
  const { paths, floor } = PAGES[page];
  const dir = runDir(`bench-profile-${page}`);
  const copy = path.join(dir, "market.db");
  fs.copyFileSync(database, copy);
  const profiled: Profiled = { pidFile: path.join(dir, "server.pid"), file: path.join(dir, "profile.cpuprofile") };
  const server = await startServer({
    port: Number(values.port),
    chainPort: Number(values["chain-port"]),
    database: copy,
    buildDir: floor ? buildFloor() : build,
    script: "tests/bench/profiled-server.ts",
    env: { PROFILE_PID_FILE: profiled.pidFile, PROFILE_FILE: profiled.file },
  });
  try {
    const target: Target = { base: server.base, paths, headers: UNCACHED, expect: null };
    await closedLoop(target, 3000, 8); // JIT and caches
    const quiet = await profileWindow(profiled, path.join(OUT, `${page}-quiet.cpuprofile`), async () => {
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return seconds * 1000;
    });
    let elapsed = 0;
    const loaded = await profileWindow(profiled, path.join(OUT, `${page}.cpuprofile`), async () => {
      const started = performance.now();
      const result = await closedLoop(target, seconds * 1000, 8);
      elapsed = performance.now() - started;
      return result.requests;
    });
    // What the server does unasked, per ms of wall time, taken off the loaded window's share.
    const perRequest = new Map<string, number>();
    for (const [name, ms] of loaded.ms) {
      const background = ((quiet.ms.get(name) ?? 0) / quiet.count) * elapsed;
      perRequest.set(name, Math.max(0, ms - background) / loaded.count);
    }
    rows.push({ page, perRequest });
    console.log(`${page}: ${loaded.count} requests in ${(elapsed / 1000).toFixed(1)} s`);
  } finally {
    server.stop();
  }
}

const names = [...CATEGORIES.map(([name]) => name), "other"];
const total = (row: (typeof rows)[number]) => [...row.perRequest.values()].reduce((a, b) => a + b, 0);
console.log(`\nserver CPU per request, ms (the quiet window's background taken off):`);
console.log(`${"".padEnd(28)}${rows.map((row) => row.page.padStart(10)).join("")}`);
for (const name of names)
  console.log(`${name.padEnd(28)}${rows.map((row) => (row.perRequest.get(name) ?? 0).toFixed(3).padStart(10)).join("")}`);
console.log(`${"total".padEnd(28)}${rows.map((row) => total(row).toFixed(3).padStart(10)).join("")}`);
const floorRow = rows.find((row) => row.page === "floor");
if (floorRow)
  console.log(`${"floor / page".padEnd(28)}${rows.map((row) => (total(floorRow) / total(row)).toFixed(2).padStart(10)).join("")}`);
console.log(`profiles: ${OUT}`);
