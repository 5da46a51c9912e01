/**
 * Trades per second on each engine (issue 26): `clients` concurrent clients, each passing its own item back and
 * forth between its own two wallets (sell, then buy: two write transactions through the market's own functions,
 * as tests/bench/ledger-sync.ts does), for `seconds`. The clients share no listing, item or balance; they do share
 * what every trade touches (the listing and page generations, the day's volume row). Prints trades/s and the p50
 * and p95 of a whole trade (sell + buy) per engine, with 1 client and with `clients`.
 * SQLite is a file in WAL mode with synchronous=FULL (as the app runs it); PostgreSQL a throwaway cluster
 * (tests/support/postgres.ts: fsync off, so its commits cost less than a real server's). On PostgreSQL it also samples
 * the bench's sessions (pg_stat_activity, every 20 ms) and prints where they were: waiting on a row lock, working in
 * the server, idle in a transaction (waiting on the bench's Node process), or between transactions (decision 0034).
 *   npx tsx tests/bench/trades.ts [--clients 8] [--seconds 5] [--engines sqlite,postgres]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import pg from "pg";
import { openDatabase } from "../../backend/schema";
import type { Engine } from "../../backend/db/sql";
import { MarketDb, type Sql } from "../../backend/market/shared/db";
import { credit } from "../../backend/market/shared/ledger";
import { orderCounter } from "../../backend/market/trades/orders";
import { orderProofs, ownerOf } from "../backend/direct-orders";
import { buy, sell } from "../../backend/market/trades/trades";
import { startBenchCluster, type BenchCluster } from "./market-pg";

const values = cliOptions({ clients: "8", seconds: "5", engines: "sqlite,postgres" });
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const ENGINES = values.engines!.split(",") as Engine[];

const PRICE = 10n ** 15n;
const NFT_TYPE = 0;

const wallet = (client: number, side: number): `0x${string}` => `0x${(0xbe0000 + client * 2 + side).toString(16).padStart(40, "0")}`;

interface Result {
  engine: Engine;
  clients: number;
  trades: number;
  ms: number;
  latencies: number[];
  /** Transactions run again after a serialization failure or deadlock (PostgreSQL). */
  retries: number;
  /** PostgreSQL: the bench's sessions as sampled, per state (`Lock` waits, `active`, `idle in transaction`, `idle`). */
  sessions: Map<string, number> | null;
  /** The CPU the bench's own Node process used, in cores (1 = one core all the time). */
  nodeCores: number;
  /** The machine's CPU in use meanwhile, by everything on it, in cores (of `os.cpus().length`); null off Linux. */
  machineCores: number | null;
}

/** Busy and total CPU time of the whole machine so far (/proc/stat, in ticks), or null where there is none. */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
    const ticks = fields.map(Number);
    const idle = ticks[3] + (ticks[4] ?? 0);
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Samples the sessions of the database `url` every 20 ms until stopped: how many samples found one in each state. */
function sampleSessions(url: string) {
  const counts = new Map<string, number>();
  const client = new pg.Client({ connectionString: url });
  let running = true;
  const done = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ state: string; wait: string | null }>(
        // A session waiting on a row holds the row's tuple lock meanwhile: its table names the row waited on.
        `select state, case when wait_event_type = 'Lock' then wait_event || coalesce(' on ' || (select string_agg(distinct
           l.relation::regclass::text, ',') from pg_locks l where l.pid = a.pid and l.locktype = 'tuple'), '') end as wait
         from pg_stat_activity a where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      for (const row of rows) {
        const key = row.wait ? `lock:${row.wait}` : row.state;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await done;
      return counts;
    },
  };
}

/** A fresh market database on `engine`: its target and how to remove it. */
async function freshDatabase(engine: Engine, cluster: BenchCluster | null, name: string) {
  if (engine === "postgres") return { target: await cluster!.createDatabase(name), remove: () => undefined };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-trades-bench-"));
  return { target: path.join(dir, "bench.db"), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function run(engine: Engine, cluster: BenchCluster | null, clients: number): Promise<Result> {
  const { target, remove } = await freshDatabase(engine, cluster, `trades_${clients}`);
  const store = await openDatabase(target);
  try {
    const db = new MarketDb(store);
    const now = Date.now();
    // Each client: one item held in the game by its first wallet, and money enough for both wallets.
    await db.write(async (tx) => {
      for (let c = 0; c < clients; c++) {
        await tx.run(
          `insert into market_items (nft_type, token_id, owner_address, location, name, image, created_at, updated_at)
           values (?, ?, ?, 0, 'bench', '', ?, ?)`,
          [NFT_TYPE, `${900_000 + c}`, wallet(c, 0), now, now],
        );
        for (const side of [0, 1]) await credit(tx, wallet(c, side), "FIRE", PRICE * 1_000_000n);
      }
    });
    const order = orderProofs(now);

    const latencies: number[] = [];
    // Every run of a transaction's function beyond one per transaction is a retry.
    let runs = 0;
    let transactions = 0;
    const write = <T>(fn: (tx: Sql) => Promise<T>) => {
      transactions++;
      return db.write((tx) => {
        runs++;
        return fn(tx);
      });
    };
    const sampler = engine === "postgres" ? sampleSessions(target) : null;
    const end = performance.now() + SECONDS * 1000;
    async function client(c: number) {
      const item = { nftType: NFT_TYPE, tokenId: `${900_000 + c}` };
      for (let i = 0; performance.now() < end; i++) {
        const [seller, buyer] = i % 2 === 0 ? [wallet(c, 0), wallet(c, 1)] : [wallet(c, 1), wallet(c, 0)];
        const started = performance.now();
        const counter = await orderCounter(db, seller);
        const { listingId } = await write((tx) =>
          sell(
            tx,
            ownerOf(seller),
            { ...item, ownerAddress: seller, address: seller, price: PRICE, currency: "FIRE", counter },
            order(),
            Date.now(),
          ),
        );
        await write((tx) => buy(tx, ownerOf(buyer), { ...item, listingId, price: PRICE, address: buyer }, order(), Date.now()));
        latencies.push(performance.now() - started);
      }
    }
    const started = performance.now();
    const cpu = process.cpuUsage();
    const ticks = machineTicks();
    await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const nodeCores = (used.user + used.system) / 1000 / ms;
    const ticksAfter = machineTicks();
    const machineCores =
      ticks && ticksAfter ? ((ticksAfter.busy - ticks.busy) / (ticksAfter.total - ticks.total)) * os.cpus().length : null;
    const sessions = (await sampler?.stop()) ?? null;
    latencies.sort((a, b) => a - b);
    return {
      engine,
      clients,
      trades: latencies.length,
      ms,
      latencies,
      retries: runs - transactions,
      sessions,
      nodeCores,
      machineCores,
    };
  } finally {
    await store.close();
    remove();
  }
}

const results: Result[] = [];
for (const engine of ENGINES) {
  const cluster = engine === "postgres" ? await startBenchCluster() : null;
  try {
    for (const clients of [...new Set([1, CLIENTS])]) results.push(await run(engine, cluster, clients));
  } finally {
    await cluster?.stop();
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
console.log(`\ntrades (sell + buy, two write transactions) for ${SECONDS} s, distinct items and wallets per client:`);
console.log(
  `${"engine".padEnd(10)}${"clients".padStart(8)}${"trades".padStart(8)}${"trades/s".padStart(10)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}${"retries".padStart(9)}${"node cpu".padStart(10)}${"machine cpu".padStart(13)}`,
);
for (const r of results) {
  console.log(
    `${r.engine.padEnd(10)}${String(r.clients).padStart(8)}${String(r.trades).padStart(8)}` +
      `${((r.trades * 1000) / r.ms).toFixed(0).padStart(10)}${pct(r.latencies, 0.5).toFixed(2).padStart(9)}${pct(r.latencies, 0.95).toFixed(2).padStart(9)}${String(r.retries).padStart(9)}` +
      `${r.nodeCores.toFixed(2).padStart(10)}${(r.machineCores === null ? "-" : `${r.machineCores.toFixed(2)}/${os.cpus().length}`).padStart(13)}`,
  );
}
console.log("(cpu in cores: the bench's Node process, and everything on the machine meanwhile)");
console.log("\nPostgreSQL sessions as sampled (share of session samples):");
for (const r of results) {
  if (!r.sessions) continue;
  const total = [...r.sessions.values()].reduce((a, b) => a + b, 0);
  const shares = [...r.sessions].sort(([, a], [, b]) => b - a).map(([key, n]) => `${key} ${((100 * n) / total).toFixed(0)}%`);
  console.log(`${String(r.clients).padStart(3)} clients: ${shares.join(", ")}`);
}
