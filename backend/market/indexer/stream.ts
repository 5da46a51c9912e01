/**
 * What the indexer's event streams with reorg handling share (the bridge's, bridge.ts, the materials', materials.ts,
 * SparkItems', items1155.ts, the trading contract's, the rewards' and SparkCard's mutations', mutations.ts):
 * a cursor that keeps its block's hash, and a table of applied events, each stored with the block hash it was
 * applied at and what it did, so that after a reorg the events of vanished blocks can be undone newest first.
 * Synchronous, inside one MarketDb transaction.
 */
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
