/**
 * The loyalty pages' words and figures, built by their loaders from the chain's pools (core/staking.ts), so the
 * pages ship neither the rules nor the formatting: every amount, date and count arrives as text. Pure and
 * unit-tested; the countdowns get the chain's time and the next change as unix seconds to tick from.
 */
import { formatChainTime, formatDuration } from "~core/chain-text";
import { formatPrice, parseTokenAmount, type ShownAmount, shownAmount } from "~core/money";
import type { StakePoolEntry } from "~core/pools";
import {
  MAX_REWARD_PER_ADDRESS,
  nextChange,
  POOL_STATUS_TEXT,
  rewardBoxesAfter,
  rewardFormulaText,
  STAKE_AMOUNT_FORMAT_MESSAGE,
  type PoolState,
  type PoolStatus,
  type UserStake,
} from "~core/staking";

/** "1 Standard loot box", "2 Standard loot boxes" (reward box names end in "box"). */
export function boxCount(count: bigint | number, name: string): string {
  return `${count} ${BigInt(count) === 1n ? name : `${name}es`}`;
}

const count = (n: bigint) => n.toLocaleString("en-US");

export interface PoolView {
  id: number;
  title: string;
  description: string;
  rewardBoxName: string;
  rewardBoxType: number;
  status: PoolStatus;
  statusLabel: string;
  statusExplanation: string;
  stakers: string;
  totalStaked: ShownAmount;
  threshold: string;
  thresholdWei: string;
  boxes: { maxSupply: string; allocated: string; claimed: string; left: string };
  dates: { stakingOpens: string; stakingEnds: string; vaultEnds: string };
  /** The next change of status: unix seconds, and the time left by the chain's clock when read. */
  next: { label: string; at: string; left: string } | null;
  formula: string;
}

export function poolView(entry: StakePoolEntry, state: PoolState, now: bigint): PoolView {
  const next = nextChange(state, now);
  const left = state.rewardNftMaxSupply - state.rewardNftAllocNumber;
  return {
    id: entry.id,
    title: entry.title,
    description: entry.description,
    rewardBoxName: entry.rewardBoxName,
    rewardBoxType: state.rewardNftType,
    status: state.status,
    statusLabel: POOL_STATUS_TEXT[state.status].label,
    statusExplanation: POOL_STATUS_TEXT[state.status].explanation,
    stakers: count(state.stakers),
    totalStaked: shownAmount(state.totalStaked, "FIRE", "balance"),
    threshold: formatPrice(state.takerThreshold, "FIRE"),
    thresholdWei: state.takerThreshold.toString(),
    boxes: {
      maxSupply: count(state.rewardNftMaxSupply),
      allocated: count(state.rewardNftAllocNumber),
      claimed: count(state.claimedNftNumber),
      left: count(left > 0n ? left : 0n),
    },
    dates: {
      stakingOpens: formatChainTime(state.beginVaultTime),
      stakingEnds: formatChainTime(state.endStakingTime),
      vaultEnds: formatChainTime(state.endVaultTime),
    },
    next: next && { label: next.label, at: next.at.toString(), left: formatDuration(next.at - now) },
    formula: rewardFormulaText(state, entry.rewardBoxName),
  };
}

export interface StakeView {
  staked: string;
  stakedWei: string;
  rewardBoxes: number;
  /** "2 Standard loot boxes". */
  rewards: string;
}

export function stakeView(entry: StakePoolEntry, stake: UserStake): StakeView {
  return {
    staked: formatPrice(stake.staked, "FIRE"),
    stakedWei: stake.staked.toString(),
    rewardBoxes: Number(stake.rewardBoxes),
    rewards: boxCount(stake.rewardBoxes, entry.rewardBoxName),
  };
}

export type RewardPreview = { ok: true; amount: string; text: string } | { ok: false; amount: string; message: string };

/**
 * "What would a deposit of this much earn?", for the pool page's GET form: the stake it makes and the boxes it
 * holds then, by the contract's formula with what the pool has left now.
 */
export function rewardPreview(text: string, entry: StakePoolEntry, state: PoolState, stake: UserStake | null): RewardPreview {
  const typed = text.trim().slice(0, 40);
  const amount = parseTokenAmount(typed);
  if (amount === undefined || amount === 0n) return { ok: false, amount: typed, message: STAKE_AMOUNT_FORMAT_MESSAGE };
  const staked = stake?.staked ?? 0n;
  const held = stake?.rewardBoxes ?? 0n;
  const total = staked + amount;
  const boxes = rewardBoxesAfter(total, held, state);
  const capped = total / state.takerThreshold > MAX_REWARD_PER_ADDRESS ? ` (${MAX_REWARD_PER_ADDRESS} is the most per address)` : "";
  const earns = `${boxCount(boxes, entry.rewardBoxName)}${capped}`;
  const subject =
    staked > 0n
      ? `Adding ${formatPrice(amount, "FIRE")} makes your stake ${formatPrice(total, "FIRE")}, which`
      : `A stake of ${formatPrice(amount, "FIRE")}`;
  const sentence =
    total < state.takerThreshold
      ? `${subject} is below the threshold of ${formatPrice(state.takerThreshold, "FIRE")}: it earns ${earns}.`
      : `${subject} earns ${earns}.`;
  return { ok: true, amount: typed, text: sentence };
}

export interface HistoryRow {
  key: string;
  date: string;
  what: "Deposit" | "Withdrawal";
  amount: string;
  detail: string;
  txHash: string;
}

/** The history of a wallet's stake, newest first. */
export function historyRows(
  entries: readonly (
    | { kind: "deposit"; txHash: string; time: bigint; amount: bigint; stakeAfter: bigint; rewardBoxesAfter: bigint }
    | { kind: "withdrawal"; txHash: string; time: bigint; amount: bigint; rewardBoxIds: readonly bigint[] }
  )[],
  entry: StakePoolEntry,
): HistoryRow[] {
  return entries
    .map((item, index): HistoryRow => {
      const base = {
        key: `${item.txHash}-${index}`,
        date: formatChainTime(item.time),
        amount: formatPrice(item.amount, "FIRE"),
        txHash: item.txHash,
      };
      if (item.kind === "deposit") {
        return {
          ...base,
          what: "Deposit",
          detail: `Stake ${formatPrice(item.stakeAfter, "FIRE")}, earning ${boxCount(item.rewardBoxesAfter, entry.rewardBoxName)}`,
        };
      }
      const ids = item.rewardBoxIds.map((id) => `#${id}`).join(", ");
      return {
        ...base,
        what: "Withdrawal",
        detail: item.rewardBoxIds.length ? `Claimed ${boxCount(item.rewardBoxIds.length, entry.rewardBoxName)}: ${ids}` : "No reward box",
      };
    })
    .reverse();
}
