/**
 * The loyalty programme's rules (docs/staking.md), as FireStaking applies them, in one pure module that the pool
 * pages, the browser-wallet island and the SSO executor share:
 * - a pool's status by the chain's clock (the contract's _status: upcoming, open, locked, claimable);
 * - the reward formula: every full threshold of a stake earns one box, at most MAX_REWARD_PER_ADDRESS per address,
 *   while the pool has boxes left (first come, first served);
 * - a deposit's amount: above zero, within the balance, and bringing the stake to at least the threshold.
 */
import { revertMessage } from "./chain-errors";
import { formatAmount, formatPrice, parseTokenAmount } from "./money";

/** FireStaking's status codes (STATUS_UPCOMING … STATUS_ENDED), by index. */
export const POOL_STATUSES = ["upcoming", "open", "locked", "claimable"] as const;
export type PoolStatus = (typeof POOL_STATUSES)[number];

/** FireStaking.MAX_REWARD_PER_ADDRESS: the most reward boxes one address earns in one pool. */
export const MAX_REWARD_PER_ADDRESS = 10n;

/** A pool's timeline, unix seconds as the contract stores them. */
export interface PoolTimes {
  beginVaultTime: bigint;
  endStakingTime: bigint;
  endVaultTime: bigint;
}

/**
 * The status at `now` (the chain's clock, getBlockchainTime): deposits open at beginVaultTime and close at
 * endStakingTime; stakes stay locked until endVaultTime, and from then on they can be withdrawn with the rewards.
 */
export function poolStatus(times: PoolTimes, now: bigint): PoolStatus {
  if (now < times.beginVaultTime) return "upcoming";
  if (now < times.endStakingTime) return "open";
  if (now < times.endVaultTime) return "locked";
  return "claimable";
}

export function statusCode(status: PoolStatus): number {
  return POOL_STATUSES.indexOf(status);
}

/** What each status means to a player, for the pool cards and pages. */
export const POOL_STATUS_TEXT: Record<PoolStatus, { label: string; explanation: string }> = {
  upcoming: { label: "Upcoming", explanation: "Deposits have not opened yet." },
  open: { label: "Open for staking", explanation: "The pool takes deposits until staking ends." },
  locked: { label: "Locked in the vault", explanation: "Deposits are closed; stakes are locked until the vault period ends." },
  claimable: { label: "Ended: withdraw and claim", explanation: "Stakers withdraw their FIRE and claim their reward boxes." },
};

/** The next moment the status changes, and what happens then; null once the pool is claimable for good. */
export function nextChange(times: PoolTimes, now: bigint): { at: bigint; label: string } | null {
  const status = poolStatus(times, now);
  if (status === "upcoming") return { at: times.beginVaultTime, label: "Staking opens" };
  if (status === "open") return { at: times.endStakingTime, label: "Staking ends" };
  if (status === "locked") return { at: times.endVaultTime, label: "The vault opens" };
  return null;
}

export function canDeposit(status: PoolStatus): boolean {
  return status === "open";
}

export function canWithdraw(status: PoolStatus, stake: bigint): boolean {
  return status === "claimable" && stake > 0n;
}

/** A pool as queryPoolInfo returns it (the product's Stake pool fields), with its status in words. */
export interface PoolState extends PoolTimes, RewardTerms {
  poolId: number;
  /** poolStatus by the chain's clock at the block it was read at (tests/contracts/staking.test.ts proves it equals the contract's code). */
  status: PoolStatus;
  stakers: bigint;
  totalStaked: bigint;
  rewardNftType: number;
  claimedNftNumber: bigint;
}

/** A wallet's stake in a pool (queryUserStake). */
export interface UserStake {
  poolId: number;
  staked: bigint;
  /** Reward boxes allocated to the stake so far (nftNumber), forged on withdrawal. */
  rewardBoxes: bigint;
}

/** What the reward formula needs of a pool: its threshold, its box supply and the boxes already allocated. */
export interface RewardTerms {
  takerThreshold: bigint;
  rewardNftMaxSupply: bigint;
  rewardNftAllocNumber: bigint;
}

/** Boxes a stake earns before the pool's supply is counted: ⌊stake ÷ threshold⌋, at most MAX_REWARD_PER_ADDRESS. */
export function boxesByStake(stake: bigint, threshold: bigint): bigint {
  if (threshold <= 0n) return 0n;
  const earned = stake / threshold;
  return earned > MAX_REWARD_PER_ADDRESS ? MAX_REWARD_PER_ADDRESS : earned;
}

/**
 * The boxes an address holds after its stake becomes `stake`, as deposit() allocates them: they never go down
 * (`held` is its nftNumber now), and the boxes it gains come from what the pool has left.
 */
export function rewardBoxesAfter(stake: bigint, held: bigint, terms: RewardTerms): bigint {
  const earned = boxesByStake(stake, terms.takerThreshold);
  if (earned <= held) return held;
  const left = terms.rewardNftMaxSupply - terms.rewardNftAllocNumber;
  const extra = earned - held;
  return held + (extra > left ? (left > 0n ? left : 0n) : extra);
}

/** The formula in words, with the pool's own figures. */
export function rewardFormulaText(terms: RewardTerms, rewardBoxName: string): string {
  const threshold = formatPrice(terms.takerThreshold, "FIRE");
  return `Every full ${threshold} of your stake earns one ${rewardBoxName}, up to ${MAX_REWARD_PER_ADDRESS} per address, while the pool has boxes left.`;
}

/** What a deposit is checked against, by the chain's clock and in wei. */
export interface DepositFacts {
  poolId: number;
  status: PoolStatus;
  /** The wallet's FIRE balance and its stake in the pool now. */
  balance: bigint;
  stake: bigint;
  /** The pool's takerThreshold: the least stake that earns a box. */
  threshold: bigint;
}

/**
 * Why a deposit of `amount` FIRE wei is refused, or null: the pool must take deposits, the amount be above zero
 * and within the balance, and the stake it makes reach the threshold. A stake below the threshold would earn
 * nothing, so it is refused here though the contract would take it.
 */
export function depositRefusal(amount: bigint, facts: DepositFacts): string | null {
  if (!canDeposit(facts.status)) return revertMessage("StakingNotOpen", [BigInt(facts.poolId), statusCode(facts.status)]);
  if (amount <= 0n) return revertMessage("ZeroAmount", []);
  // Rounded as core/money.ts says: the balance down (entering it is always allowed), what is missing up.
  if (amount > facts.balance) return `Your wallet holds ${formatAmount(facts.balance, "FIRE", "balance")}: enter at most that.`;
  if (facts.stake + amount < facts.threshold) {
    const threshold = formatPrice(facts.threshold, "FIRE");
    return facts.stake > 0n
      ? `Your stake must reach the pool's threshold of ${threshold}: add at least ${formatAmount(facts.threshold - facts.stake, "FIRE", "cost")}.`
      : `Stake at least the pool's threshold of ${threshold}.`;
  }
  return null;
}

export const STAKE_AMOUNT_FORMAT_MESSAGE = "Enter an amount of FIRE as a number, like 100 or 12.5.";

export type StakeAmountCheck = { ok: true; amount: bigint } | { ok: false; message: string };

/** The amount as typed in the deposit field, parsed (18 decimals) and checked by depositRefusal. */
export function checkStakeAmount(text: string, facts: DepositFacts): StakeAmountCheck {
  if (!canDeposit(facts.status)) return { ok: false, message: depositRefusal(0n, facts)! };
  const amount = parseTokenAmount(text.trim());
  if (amount === undefined) return { ok: false, message: STAKE_AMOUNT_FORMAT_MESSAGE };
  const refusal = depositRefusal(amount, facts);
  return refusal ? { ok: false, message: refusal } : { ok: true, amount };
}

/** Why withdrawAndClaim would be refused now, or null: nothing staked, or the vault not yet open (with its date). */
export function withdrawRefusal(facts: { poolId: number; now: bigint; endVaultTime: bigint; staked: bigint }): string | null {
  const id = BigInt(facts.poolId);
  if (facts.staked === 0n) return revertMessage("NothingStaked", [id]);
  if (facts.now < facts.endVaultTime) return revertMessage("VaultLocked", [id, facts.endVaultTime]);
  return null;
}
