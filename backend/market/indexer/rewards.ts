/**
 * The rewards stream of the market indexer (issue 29): the reward manager's AwardClaimed events, applied once they
 * are final (decision 0029). Each marks its award paid (awards/awards.ts awardPaid). Like the bridge's, every applied event
 * is stored with its block hash and the status its award had (unique by transaction and log index, so none is
 * applied twice), and after a reorg the events of vanished blocks are undone, newest first (stream.ts). The cursor's
 * block time is what lets an unpaid award past its deadline go back to the rebate balance (settleExpiredAwards).
 */
import { type Address, getAbiItem, type Hash } from "viem";
import { rewardManagerAbi } from "../../../contracts/generated/abi";
import type { Sql } from "../shared/db";
import { awardPaid, REWARDS_STREAM, undoAwardPaid } from "../awards";
import { applied, readStreamCursor, type StoredStream, writeStreamCursor } from "./stream";

export const AWARD_CLAIMED_EVENT = getAbiItem({ abi: rewardManagerAbi, name: "AwardClaimed" });

export interface RewardEvent {
  blockNumber: bigint;
  blockHash: Hash;
  txHash: Hash;
  logIndex: number;
  account: Address;
  nonce: bigint;
}

/** What applying an event did, stored with it so a reorg can take it back. */
type Effect = { type: "award-paid"; awardId: number; previousStatus: number } | { type: "none"; reason: string };

async function undo(db: Sql, effect: Effect, now: number): Promise<void> {
  if (effect.type === "award-paid") await undoAwardPaid(db, effect.awardId, effect.previousStatus, now);
}

/** The rewards stream's cursor and applied events, for the indexer's reorg check. */
export const REWARDS: StoredStream = {
  stream: REWARDS_STREAM,
  table: "market_reward_events",
  undo: (db, effect, now) => undo(db, JSON.parse(effect) as Effect, now),
};

export interface RewardsRange {
  expectedCursor: bigint | null;
  toBlock: bigint;
  toHash: Hash;
  /** The time of block toBlock (unix seconds): awards past it that were not paid by then never will be. */
  toTime: bigint;
  events: readonly RewardEvent[];
  now: number;
}

/** Applies a range's events in chain order, each once, and moves the cursor; false when another run moved it first. */
export async function applyRewardsRange(db: Sql, w: RewardsRange): Promise<boolean> {
  if (((await readStreamCursor(db, REWARDS_STREAM))?.block ?? null) !== w.expectedCursor) return false;
  for (const e of w.events) {
    if (await applied(db, REWARDS, e.txHash, e.logIndex)) continue;
    // A nonce beyond any the market signs is no award of this market's.
    const previous = e.nonce <= BigInt(Number.MAX_SAFE_INTEGER) ? await awardPaid(db, e.account, Number(e.nonce), w.now) : null;
    const effect: Effect =
      previous === null
        ? { type: "none", reason: "not an award of this market" }
        : { type: "award-paid", awardId: Number(e.nonce), previousStatus: previous };
    await db.run(
      `insert into market_reward_events (block_number, block_hash, tx_hash, log_index, event, effect, created_at) values (?, ?, ?, ?, ?, ?, ?)`,
      [Number(e.blockNumber), e.blockHash, e.txHash, e.logIndex, "award-claimed", JSON.stringify(effect), w.now],
    );
  }
  await writeStreamCursor(db, REWARDS_STREAM, w.toBlock, w.toHash, w.now, w.toTime);
  return true;
}
