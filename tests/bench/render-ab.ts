/**
 * Server CPU per request, two builds side by side (issue 44): each build served by its own server on its own copy of
 * the market bench's database, rounds alternating between them target by target; the server's user + system time
 * (from /proc) over a round, divided by the requests it answered. Medians of the rounds.
 * Side a may be another checkout (--dir-a: e.g. `git archive <commit>` unpacked, with node_modules linked and its
 * build in its build/), so its server.ts is the commit's too.
 *   REMIX_BUILD_DIR is ignored: npx tsx tests/bench/render-ab.ts --a data/build-before --b build [--dir-a DIR] [--rounds 5]
 *     [--seconds 4] [--concurrency 8] [--port-a 3731] [--port-b 3733]
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { cachedMarketDb } from "./market-db";
import { closedLoop, MARKET_PAGES, median, UNCACHED, type Target } from "./load";
import { startServer, type BenchServer } from "./server";

const { values } = parseArgs({
  options: {
    a: { type: "string", default: "data/build-before" },
    b: { type: "string", default: "build" },
    "dir-a": { type: "string" },
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "4" },
    concurrency: { type: "string", default: "8" },
    "port-a": { type: "string", default: "3731" },
    "port-b": { type: "string", default: "3733" },
  },
});
const CACHE_DIR = path.resolve("data/bench-market");

/** The node process listening on `port`. */
function listener(port: number): number {
  const out = execSync(`ss -ltnpH 'sport = :${port}'`).toString();
  const pid = /pid=(\d+)/.exec(out)?.[1];
  if (!pid) throw new Error(`no process listens on ${port}`);
  return Number(pid);
}
const ticks = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]);
};
const TICK_MS = 1000 / Number(execSync("getconf CLK_TCK").toString());

async function main() {
  const source = await cachedMarketDb(CACHE_DIR, 100_000);
  const servers: { name: string; server: BenchServer; pid: number }[] = [];
  try {
    for (const [name, build, port] of [
      ["a", values.a!, Number(values["port-a"])],
      ["b", values.b!, Number(values["port-b"])],
    ] as const) {
      const dir = path.join(CACHE_DIR, `ab-${port}`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(source, path.join(dir, "spark.db"));
      const cwd = name === "a" ? values["dir-a"] : undefined;
      const server = await startServer({
        port,
        chainPort: port + 5000,
        database: path.join(dir, "spark.db"),
        buildDir: cwd ? path.resolve(cwd, build) : build,
        cwd,
      });
      servers.push({ name: `${name} (${build})`, server, pid: listener(port) });
    }
    const targets: [string, (base: string) => Target][] = [
      ["layout", (base) => ({ base, paths: ["/marketplace/detail"], headers: UNCACHED })],
      ["rendered", (base) => ({ base, paths: MARKET_PAGES, headers: UNCACHED })],
    ];
    const results = new Map<string, { cpu: number; rate: number; p95: number; kb: number }[]>();
    for (const { server } of servers)
      for (const [, target] of targets) await closedLoop(target(server.base), 1000, Number(values.concurrency));
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const [label, target] of targets) {
        for (const { name, server, pid } of round % 2 ? [...servers].reverse() : servers) {
          const before = ticks(pid);
          const result = await closedLoop(target(server.base), Number(values.seconds) * 1000, Number(values.concurrency));
          const cpu = ((ticks(pid) - before) * TICK_MS) / result.requests;
          const key = `${label} ${name}`;
          results.set(key, [
            ...(results.get(key) ?? []),
            { cpu, rate: result.rate, p95: result.p95, kb: result.bytes / result.requests / 1024 },
          ]);
        }
      }
    }
    for (const [key, rows] of results) {
      const m = (pick: (row: (typeof rows)[number]) => number) => median(rows.map(pick));
      console.log(
        `${key.padEnd(40)} CPU ${m((r) => r.cpu).toFixed(2)} ms/req  ${m((r) => r.rate).toFixed(1)} req/s  p95 ${m((r) => r.p95).toFixed(0)} ms  ${m((r) => r.kb).toFixed(1)} KB`,
      );
    }
  } finally {
    for (const { server } of servers) server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
