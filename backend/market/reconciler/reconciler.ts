/**
 * The chain reconciler (decision 0027): compares the market's view of the chain with the chain and takes the chain's
 * side where they differ. The indexer applies events; this catches what it missed or got wrong (an event it could
 * not read, a bug, a row written by hand), so the market never shows an owner or a listing the chain does not hold.
 *
 * It compares only while the indexer is at rest, the cursors of the streams that follow the head on one block and
 * those of the paying streams (decision 0029) on one final block, and reads the chain at the first: the rows it
 * compares (chain items, chain stacks, chain listings) say what the indexer made of exactly those blocks. A swap into
 * the game between the two blocks is not placed yet, so the asset manager holding an item is then no difference. A
 * repair at a block a reorg later takes back is the indexer's to undo, like its own ranges. A repair is one
 * transaction that first fences the cursors (a conditional no-op update of each, which also holds their rows against
 * the indexer's next range until it commits); if any moved, the differences are compared again at the new block
 * before another try.
 * Runs every `intervalMs` as a background role (one holder among processes), or once from `npm run reconcile`.
 */
import { shortError } from "~core/rpc-errors";
import type { BackendChain, BackendLog } from "../../types";
import type { RoleWork } from "../../db/roles";
import type { MarketDb, Sql } from "../shared/db";
import { TRANSFERS_STREAM, chainReader, PAYING_STREAMS, SHOWING_STREAMS } from "../indexer";
import { type ChainRows, type DriftKind, type Scope, chainRows, compare, DRIFT_KINDS } from "./check";

/** The indexer's streams that follow the head, and the paying ones, by their cursors' names. */
const HEAD_STREAMS = [TRANSFERS_STREAM, ...SHOWING_STREAMS.map((s) => s.stream)];
const FINAL_STREAMS = PAYING_STREAMS.map((s) => s.stream);
/** Tries to find the indexer at rest, or to repair before it moves on, per run. */
const TRIES = 5;
/** The reconciler's default period (RECONCILE_INTERVAL_MS). */
export const DEFAULT_RECONCILE_INTERVAL_MS = 600_000;

export interface DriftRecord {
  kind: DriftKind;
  token: string;
  market: string;
  chain: string;
  repaired: boolean;
}

export interface ReconcileReport {
  /** The block compared at; null when the indexer never came to rest (then nothing was compared). */
  block: bigint | null;
  checked: { items: number; stacks: number; listings: number };
  differences: DriftRecord[];
  repaired: number;
}

export interface ReconcilerOptions {
  log?: BackendLog;
  /** The role's period; 0: the role never runs. */
  intervalMs?: number;
  /** After each run: the differences it found, by kind (the server's spark_chain_drift gauge). */
  onDrift?: (differences: Record<DriftKind, number>) => void;
}

export interface ChainReconciler {
  /** One comparison, with repairs unless `dryRun`. */
  run(options?: { dryRun?: boolean }): Promise<ReconcileReport>;
  /** Runs every `intervalMs` while this process holds the reconciler role. */
  role: RoleWork;
}

/** Where the indexer rests: the head streams' block, and the paying streams' final one (at or below it). */
interface Rest {
  block: bigint;
  final: bigint;
}

/** The block all of `streams` stand on, or null while they differ (the indexer mid-pass) or before the first. */
async function commonBlock(db: Sql, streams: readonly string[]): Promise<bigint | null> {
  const rows = await db.all<{ stream: string; block: number }>(
    `select stream, block from market_chain_cursors where stream in (${streams.map(() => "?").join(", ")})`,
    [...streams],
  );
  if (rows.length !== streams.length || rows.some((row) => Number(row.block) !== Number(rows[0]!.block))) return null;
  return BigInt(rows[0]!.block);
}

async function resting(db: Sql): Promise<Rest | null> {
  const [block, final] = [await commonBlock(db, HEAD_STREAMS), await commonBlock(db, FINAL_STREAMS)];
  return block === null || final === null || final > block ? null : { block, final };
}

const sameRest = (a: Rest | null, b: Rest) => a !== null && a.block === b.block && a.final === b.final;

/** In a repair's transaction: true while every cursor is still where it rested, each row then held until commit. */
async function fence(tx: Sql, rest: Rest, now: number): Promise<boolean> {
  const at = [
    ...HEAD_STREAMS.map((stream) => [stream, rest.block] as const),
    ...FINAL_STREAMS.map((stream) => [stream, rest.final] as const),
  ];
  for (const [stream, block] of at) {
    const { changes } = await tx.run("update market_chain_cursors set updated_at = ? where stream = ? and block = ?", [
      now,
      stream,
      Number(block),
    ]);
    if (changes !== 1) return false;
  }
  return true;
}

const idsOf = (drifts: readonly { kind: DriftKind; rowId: number }[]): Scope =>
  Object.fromEntries(DRIFT_KINDS.map((kind) => [kind, drifts.filter((d) => d.kind === kind).map((d) => d.rowId)]));

export function createChainReconciler(
  db: MarketDb,
  chain: BackendChain,
  { log = console, intervalMs = DEFAULT_RECONCILE_INTERVAL_MS, onDrift }: ReconcilerOptions = {},
): ChainReconciler {
  const reader = chainReader(chain, "reconciler");
  /** The role's timer is off. */
  let stopped = true;
  /** The role is stopping: a run in progress repairs nothing more. */
  let halting = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const pause = () => new Promise((resolve) => setTimeout(resolve, chain.pollIntervalMs));

  /** The rows in scope and where the indexer rested when they were read, or null when it did not rest. */
  async function snapshot(scope: Scope): Promise<{ rest: Rest; rows: ChainRows } | null> {
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      if (attempt) await pause();
      const rest = await resting(db);
      // Paid out above the final block (CHAIN_CONFIRMATIONS raised since): wait until it is final again.
      if (rest === null || rest.final > (await reader.depths()).final) continue;
      const rows = await chainRows(db, scope);
      // Still there after the rows were read: they hold what the indexer made of the blocks up to the rest.
      if (sameRest(await resting(db), rest)) return { rest, rows };
    }
    return null;
  }

  async function run({ dryRun = false } = {}): Promise<ReconcileReport> {
    let scope: Scope = null;
    const report: ReconcileReport = { block: null, checked: { items: 0, stacks: 0, listings: 0 }, differences: [], repaired: 0 };
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      const taken = await snapshot(scope);
      if (!taken) break;
      if (!scope)
        report.checked = { items: taken.rows.items.length, stacks: taken.rows.stacks.length, listings: taken.rows.listings.length };
      const { block, final } = taken.rest;
      const drifts = await compare(reader, chain, taken.rows, block, final < block ? chain.contracts.assetManager : null);
      report.block = block;
      report.differences = drifts.map(({ kind, token, market, chain: held }) => ({ kind, token, market, chain: held, repaired: false }));
      if (!drifts.length || dryRun || halting) break;
      const now = Date.now();
      const repaired = await db.write(async (tx) => {
        if (!(await fence(tx, taken.rest, now))) return null;
        const done: boolean[] = [];
        for (const drift of drifts) done.push(await drift.repair(tx, now));
        return done;
      });
      if (repaired) {
        repaired.forEach((done, i) => (report.differences[i]!.repaired = done));
        report.repaired = repaired.filter(Boolean).length;
        break;
      }
      // The indexer moved on: the same rows again, at its new resting block.
      scope = idsOf(drifts);
    }
    for (const d of report.differences)
      log.warn(`[market reconciler] ${d.kind} ${d.token}: market ${d.market}, chain ${d.chain}${d.repaired ? "; repaired" : ""}`);
    const { items, stacks, listings } = report.checked;
    const at = report.block === null ? "nothing: the indexer did not come to rest" : `block ${report.block}`;
    log.info(
      `[market reconciler] checked ${items} items, ${stacks} stacks, ${listings} listings at ${at}: ${report.differences.length} differences, repaired ${report.repaired}`,
    );
    onDrift?.(
      Object.fromEntries(DRIFT_KINDS.map((kind) => [kind, report.differences.filter((d) => d.kind === kind).length])) as Record<
        DriftKind,
        number
      >,
    );
    return report;
  }

  function schedule() {
    timer = setTimeout(() => {
      running = run()
        .catch((error: unknown) => log.error("[market reconciler] the run failed; trying again next period:", shortError(error)))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, intervalMs);
    // A run pending is no reason to keep the process alive.
    timer.unref();
  }

  return {
    run,
    role: {
      start() {
        if (!stopped || intervalMs <= 0) return;
        stopped = false;
        halting = false;
        schedule();
      },
      async stop() {
        stopped = true;
        halting = true;
        clearTimeout(timer);
        await running;
      },
    },
  };
}
