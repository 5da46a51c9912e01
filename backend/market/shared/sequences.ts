/** Named sequences (migrations/market_014_sequences.ts, decision 0010). */
import type { Sql } from "./db";

export type SequenceName = "claim_nonce" | "award_nonce";

/**
 * The next value of a sequence, taken by one statement: the row's update is atomic, so two writers can never be
 * handed the same value, whichever engine runs it and however their transactions interleave. Values taken are
 * never given back: a transaction that rolls back after taking one leaves a gap.
 */
export async function nextSequenceValue(db: Sql, name: SequenceName): Promise<number> {
  const row = await db.get<{ value: number }>("update market_sequences set value = value + 1 where name = ? returning value", [name]);
  if (!row) throw new Error(`no sequence ${name}`);
  return row.value;
}
