/**
 * The chain reconciler (decision 0027): compares the market's view of the chain with the chain and takes the chain's
 * side where they differ. The indexer applies events; this catches what it missed or got wrong (an event it could
 * not read, a bug, a row written by hand), so the market never shows an owner or a listing the chain does not hold.
 *
 * It compares only while the indexer is at rest, every stream's cursor on one block at safe depth (head −
 * confirmations), and reads the chain at that block: the rows then say what the indexer made of exactly those blocks. A repair is one transaction that first
 * fences the cursors (a conditional no-op update of each, which also holds their rows against the indexer's next
 * range until it commits); if any moved, the differences are compared again at the new block before another try.
 * Runs every `intervalMs` as a background role (one holder among processes), or once from `npm run reconcile`.
 */
import { shortError } from "~core/rpc-errors";
import type { BackendChain, BackendLog } from "../../types";
import type { RoleWork } from "../../db/roles";
import type { MarketDb, Sql } from "../db";
import { BRIDGE } from "../indexer/bridge";
import { TRANSFERS_STREAM } from "../indexer/indexer";
import { ITEMS } from "../indexer/items1155";
import { MATERIALS } from "../indexer/materials";
import { MUTATIONS } from "../indexer/mutations";
import { chainReader } from "../indexer/reader";
import { REWARDS } from "../indexer/rewards";
import { TRADING } from "../indexer/trading";
import { type ChainRows, type DriftKind, type Scope, chainRows, compare, DRIFT_KINDS } from "./check";

/** Every stream of the indexer, by its cursor's name. */
const STREAMS = [TRANSFERS_STREAM, ...[BRIDGE, MATERIALS, ITEMS, TRADING, REWARDS, MUTATIONS].map((s) => s.stream)];
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

/** The block every stream's cursor stands on, or null while they differ (the indexer mid-pass) or before the first. */
async function restingBlock(db: Sql): Promise<bigint | null> {
  const rows = await db.all<{ stream: string; block: number }>(
    `select stream, block from market_chain_cursors where stream in (${STREAMS.map(() => "?").join(", ")})`,
    STREAMS,
  );
  if (rows.length !== STREAMS.length || rows.some((row) => Number(row.block) !== Number(rows[0]!.block))) return null;
  return BigInt(rows[0]!.block);
}

/** In a repair's transaction: true while every cursor is still on `block`, each row then held until commit. */
async function fence(tx: Sql, block: bigint, now: number): Promise<boolean> {
  for (const stream of STREAMS) {
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

  /** The rows in scope and the resting block they were read at, or null when the indexer did not rest. */
  async function snapshot(scope: Scope): Promise<{ block: bigint; rows: ChainRows } | null> {
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      if (attempt) await pause();
      const block = await restingBlock(db);
      // Above the safe head (CHAIN_CONFIRMATIONS raised since it was applied) the block may still be taken back.
      if (block === null || block > (await reader.head()) - BigInt(chain.confirmations)) continue;
      const rows = await chainRows(db, scope);
      // Still there after the rows were read: they hold what the indexer made of the blocks up to `block`.
      if ((await restingBlock(db)) === block) return { block, rows };
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
      const drifts = await compare(reader, chain, taken.rows, taken.block);
      report.block = taken.block;
      report.differences = drifts.map(({ kind, token, market, chain: held }) => ({ kind, token, market, chain: held, repaired: false }));
      if (!drifts.length || dryRun || halting) break;
      const now = Date.now();
      const repaired = await db.write(async (tx) => {
        if (!(await fence(tx, taken.block, now))) return null;
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
