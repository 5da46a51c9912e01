/**
 * The rewards stream of the market indexer (issue 29): the reward manager's AwardClaimed events, applied once they
 * are final (decision 0029). Each marks its award paid (awards/awards.ts awardPaid). Like the bridge's, every applied event
 * is stored with its block hash and the status its award had (unique by transaction and log index, so none is
 * applied twice), and after a reorg the events of vanished blocks are undone, newest first (stream.ts). The cursor's
 * block time is what lets an unpaid award past its deadline go back to the rebate balance (settleExpiredAwards).
 */
import { type Address, getAbiItem } from "viem";
import { rewardManagerAbi } from "../../../contracts/generated/abi";
import type { Sql } from "../shared/db";
import { awardPaid, REWARDS_STREAM, undoAwardPaid } from "../awards";
import { applyStreamRange, type ChainEventPosition, type StoredStream, storedStream, type StreamRange } from "./stream";

export const AWARD_CLAIMED_EVENT = getAbiItem({ abi: rewardManagerAbi, name: "AwardClaimed" });

export interface RewardEvent extends ChainEventPosition {
  account: Address;
  nonce: bigint;
}

/** What applying an event did, stored with it so a reorg can take it back. */
type Effect = { type: "award-paid"; awardId: number; previousStatus: number } | { type: "none"; reason: string };

async function undo(db: Sql, effect: Effect, now: number): Promise<void> {
  if (effect.type === "award-paid") await undoAwardPaid(db, effect.awardId, effect.previousStatus, now);
}

/** The rewards stream's cursor and applied events, for the indexer's reorg check. */
export const REWARDS: StoredStream = storedStream(REWARDS_STREAM, "market_reward_events", undo);

export interface RewardsRange extends StreamRange<RewardEvent> {
  /** The time of block toBlock (unix seconds): awards past it that were not paid by then never will be. */
  toTime: bigint;
}

/** Applies a range's events in chain order, each once, and moves the cursor; false when another run moved it first. */
export async function applyRewardsRange(db: Sql, w: RewardsRange): Promise<boolean> {
  const apply = async (e: RewardEvent) => {
    // A nonce beyond any the market signs is no award of this market's.
    const previous = e.nonce <= BigInt(Number.MAX_SAFE_INTEGER) ? await awardPaid(db, e.account, Number(e.nonce), w.now) : null;
    const effect: Effect =
      previous === null
        ? { type: "none", reason: "not an award of this market" }
        : { type: "award-paid", awardId: Number(e.nonce), previousStatus: previous };
    return { effect, columns: { event: "award-claimed" } };
  };
  return applyStreamRange(db, REWARDS, w, apply, w.toTime);
}
