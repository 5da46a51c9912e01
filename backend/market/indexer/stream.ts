/**
 * What the indexer's event streams with reorg handling share (the bridge's, bridge.ts, the materials', materials.ts,
 * SparkItems', items1155.ts, the trading contract's, the rewards' and SparkCard's mutations', mutations.ts):
 * a cursor that keeps its block's hash, and a table of applied events, each stored with the block hash it was
 * applied at and what it did, so that after a reorg the events of vanished blocks can be undone newest first.
 * Synchronous, inside one MarketDb transaction.
 */
import type { Hash } from "viem";
import type { Sql } from "../shared/db";

export interface StoredStream {
  /** The cursor's name in market_chain_cursors. */
  stream: string;
  /** The table of its applied events: id, block_number, block_hash, effect (JSON) at least. */
  table:
    | "market_bridge_events"
    | "market_materials_events"
    | "market_items_events"
    | "market_trading_events"
    | "market_reward_events"
    | "market_mutation_events";
  /** Takes back what an applied event did (its stored effect). */
  undo(db: Sql, effect: string, now: number): Promise<void>;
}

/** A stream whose stored effects are JSON of type Effect, taken back by `undo`. */
export function storedStream<Effect>(
  stream: string,
  table: StoredStream["table"],
  undo: (db: Sql, effect: Effect, now: number) => Promise<void>,
): StoredStream {
  return { stream, table, undo: (db, effect, now) => undo(db, JSON.parse(effect) as Effect, now) };
}

/** Where an event stands on the chain: what a stream's table stores it by and its reorg check goes by. */
export interface ChainEventPosition {
  blockNumber: bigint;
  blockHash: Hash;
  txHash: Hash;
  logIndex: number;
}

/** A range of a stream's events to apply, read against the cursor `expectedCursor`, up to block toBlock. */
export interface StreamRange<Event> {
  expectedCursor: bigint | null;
  toBlock: bigint;
  toHash: Hash;
  events: readonly Event[];
  now: number;
}

/** What applying an event did (stored as JSON so a reorg can take it back), and the stream's own columns of its row. */
export interface AppliedEvent {
  effect: unknown;
  columns: Record<string, string | number | null>;
}

/**
 * Applies a range's events in chain order, each once (`apply` does one), stores each in the stream's table, and moves
 * the cursor, with its block's time `toTime` where the stream keeps it; false when another run moved it first.
 */
export async function applyStreamRange<Event extends ChainEventPosition>(
  db: Sql,
  s: StoredStream,
  w: StreamRange<Event>,
  apply: (e: Event) => Promise<AppliedEvent>,
  toTime: bigint | null = null,
): Promise<boolean> {
  if (((await readStreamCursor(db, s.stream))?.block ?? null) !== w.expectedCursor) return false;
  for (const e of w.events) {
    if (await applied(db, s, e.txHash, e.logIndex)) continue;
    const { effect, columns } = await apply(e);
    const names = Object.keys(columns);
    await db.run(
      `insert into ${s.table} (block_number, block_hash, tx_hash, log_index, ${names.join(", ")}, effect, created_at)
       values (${Array(names.length + 6)
         .fill("?")
         .join(", ")})`,
      [Number(e.blockNumber), e.blockHash, e.txHash, e.logIndex, ...Object.values(columns), JSON.stringify(effect), w.now],
    );
  }
  await writeStreamCursor(db, s.stream, w.toBlock, w.toHash, w.now, toTime);
  return true;
}

export interface StreamCursor {
  block: bigint;
  hash: string | null;
}

export async function readStreamCursor(db: Sql, stream: string): Promise<StreamCursor | null> {
  const row = await db.get<{ block: number; block_hash: string | null }>(
    "select block, block_hash from market_chain_cursors where stream = ?",
    [stream],
  );
  return row ? { block: BigInt(row.block), hash: row.block_hash } : null;
}

/** Moves a stream's cursor; `time` is its block's (unix seconds), unknown after a rewind. */
export async function writeStreamCursor(
  db: Sql,
  stream: string,
  block: bigint,
  hash: string | null,
  now: number,
  time: bigint | null = null,
): Promise<void> {
  await db.run(
    `insert into market_chain_cursors (stream, block, block_hash, block_time, updated_at) values (?, ?, ?, ?, ?)
     on conflict (stream) do update set block = excluded.block, block_hash = excluded.block_hash, block_time = excluded.block_time,
       updated_at = excluded.updated_at`,
    [stream, Number(block), hash, time === null ? null : Number(time), now],
  );
}

/** Whether the event (transaction hash, log index) was applied already. */
export async function applied(db: Sql, s: StoredStream, txHash: string, logIndex: number): Promise<boolean> {
  return (await db.get(`select 1 from ${s.table} where tx_hash = ? and log_index = ?`, [txHash, logIndex])) !== undefined;
}

/**
 * After a reorg: undoes, newest first, the applied events whose block is in `gone`, and moves the cursor back to
 * `fallbackBlock`. `expected` is the cursor the check was made against. Returns the number of events undone, or
 * null when another run moved the cursor meanwhile.
 */
export async function rewindStream(
  db: Sql,
  s: StoredStream,
  expected: bigint,
  gone: ReadonlySet<number>,
  fallbackBlock: bigint,
  now: number,
): Promise<number | null> {
  if ((await readStreamCursor(db, s.stream))?.block !== expected) return null;
  const stored = await db.all<{ id: number; block_number: number; effect: string }>(
    `select id, block_number, effect from ${s.table} where block_number >= ? order by id desc`,
    [Math.min(...gone)],
  );
  let undone = 0;
  for (const row of stored) {
    if (!gone.has(row.block_number)) continue;
    await s.undo(db, row.effect, now);
    await db.run(`delete from ${s.table} where id = ?`, [row.id]);
    undone += 1;
  }
  await writeStreamCursor(db, s.stream, fallbackBlock, null, now);
  return undone;
}

/** The blocks of the stream's applied events at or after `fromBlock`, with the hash each was applied at. */
export async function appliedBlocks(db: Sql, s: StoredStream, fromBlock: bigint): Promise<Map<number, string>> {
  const rows = await db.all<{ block_number: number; block_hash: string }>(
    `select distinct block_number, block_hash from ${s.table} where block_number >= ? order by block_number`,
    [Number(fromBlock)],
  );
  return new Map(rows.map((row) => [row.block_number, row.block_hash]));
}
