/**
 * staking.deposit and staking.withdraw (issue 13, FireStaking): a deposit is an exact FIRE approval of the staking
 * contract when the allowance is short, then deposit(poolId, amount); a withdrawal is withdrawAndClaim(poolId),
 * whose result is the FIRE returned and the reward boxes forged. The pre-checks read the pool by the chain's clock
 * and refuse what the contract would refuse, in the words of core/chain-errors.ts, before anything is sent.
 */
import { type Address, BaseError, ContractFunctionRevertedError, encodeFunctionData, isAddressEqual, type Log, parseEventLogs } from "viem";
import { fireStakingAbi, gameTokenAbi } from "../../../contracts/generated/abi";
import type { StakingDepositParams } from "~core/api/actions";
import { revertMessage } from "~core/chain-errors";
import { formatPrice } from "~core/money";
import { STAKE_POOLS, type StakePoolEntry } from "~core/pools";
import { depositRefusal, type PoolStatus, poolStatus, withdrawRefusal } from "~core/staking";
import { type PlanContext, type PlannedStep, type Planner, Refusal } from "./plan";
import { plural } from "~core/words";
import { type ExecutorPolicy, stepGasLimit } from "./policy";

/** What the deposit pre-check reads from the chain, in wei. */
export interface DepositState {
  /** The pool's status by the chain's clock now (core/staking.ts poolStatus over queryPoolInfo's times). */
  status: PoolStatus;
  threshold: bigint;
  balance: bigint;
  /** The wallet's stake in the pool now. */
  stake: bigint;
  /** The staking contract's FIRE allowance over the wallet. */
  allowance: bigint;
}

/**
 * Refuses what the deposit should not do (core/staking.ts depositRefusal, which the pool page's form and the
 * browser-wallet island apply too) and what one action may not stake; else whether to approve first.
 */
export function checkDeposit(
  pool: StakePoolEntry,
  amount: bigint,
  state: DepositState,
  policy: ExecutorPolicy,
): { needsApproval: boolean } {
  const { status } = state;
  const cap = policy.valueCaps.FIRE;
  if (status === "open" && amount > cap) {
    throw new Refusal(`One action may stake at most ${formatPrice(cap, "FIRE")}, and this one would stake ${formatPrice(amount, "FIRE")}.`);
  }
  const refusal = depositRefusal(amount, { ...state, poolId: pool.id, status });
  if (refusal) throw new Refusal(refusal);
  return { needsApproval: state.allowance < amount };
}

/** What the withdrawal pre-check reads from the chain. */
export interface WithdrawState {
  /** The chain's clock (getBlockchainTime) and the pool's vault end, unix seconds. */
  now: bigint;
  endVaultTime: bigint;
  staked: bigint;
}

/** Refuses a withdrawal with nothing to take back, or before the vault ends (with its date). */
export function checkWithdraw(pool: StakePoolEntry, state: WithdrawState): void {
  const refusal = withdrawRefusal({ ...state, poolId: pool.id });
  if (refusal) throw new Refusal(refusal);
}

function catalogued(poolId: number): StakePoolEntry {
  const pool = STAKE_POOLS.find((entry) => entry.id === poolId);
  if (!pool) throw new Refusal(revertMessage("UnknownPool", [BigInt(poolId)]));
  return pool;
}

/** The pool as the chain has it now; a pool the deployment never created is refused in words. */
async function poolInfo({ client, contracts }: PlanContext, pool: StakePoolEntry) {
  try {
    return await client.readContract({
      address: contracts.staking,
      abi: fireStakingAbi,
      functionName: "queryPoolInfo",
      args: [BigInt(pool.id)],
    });
  } catch (error) {
    const revert = error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError && revert.data?.errorName === "UnknownPool") {
      throw new Refusal(revertMessage("UnknownPool", [BigInt(pool.id)]));
    }
    throw error;
  }
}

/** The staking contract's Withdrawn event in a receipt (logs of other contracts do not count). */
export function withdrawnFromReceipt(logs: readonly Log[], staking: Address) {
  const ours = logs.filter((log) => isAddressEqual(log.address, staking));
  return parseEventLogs({ abi: fireStakingAbi, eventName: "Withdrawn", logs: ours })[0]?.args;
}

export const stakingDeposit: Planner<"staking.deposit"> = {
  async plan(ctx, { poolId, amount: amountText }: StakingDepositParams) {
    const { client, contracts, wallet, policy } = ctx;
    const pool = catalogued(poolId);
    const amount = BigInt(amountText);
    const fire = { address: contracts.fire, abi: gameTokenAbi } as const;
    const [info, now, balance, allowance, [stake]] = await Promise.all([
      poolInfo(ctx, pool),
      client.readContract({ address: contracts.staking, abi: fireStakingAbi, functionName: "getBlockchainTime" }),
      client.readContract({ ...fire, functionName: "balanceOf", args: [wallet] }),
      client.readContract({ ...fire, functionName: "allowance", args: [wallet, contracts.staking] }),
      client.readContract({
        address: contracts.staking,
        abi: fireStakingAbi,
        functionName: "queryUserStake",
        args: [BigInt(pool.id), wallet],
      }),
    ]);
    const state = { status: poolStatus(info, now), threshold: info.takerThreshold, balance, stake, allowance };
    const { needsApproval } = checkDeposit(pool, amount, state, policy);

    const shown = formatPrice(amount, "FIRE");
    const steps: PlannedStep[] = [];
    if (needsApproval) {
      steps.push({
        kind: "approve-stake",
        label: `Approve ${shown} for staking`,
        to: contracts.fire,
        data: encodeFunctionData({ abi: gameTokenAbi, functionName: "approve", args: [contracts.staking, amount] }),
        value: 0n,
        gas: stepGasLimit("approve-stake"),
      });
    }
    steps.push({
      kind: "deposit",
      label: `Stake ${shown} in the ${pool.title}`,
      to: contracts.staking,
      data: encodeFunctionData({ abi: fireStakingAbi, functionName: "deposit", args: [BigInt(pool.id), amount] }),
      value: 0n,
      gas: stepGasLimit("deposit"),
    });
    return steps;
  },

  async collect(_ctx, _kind, _receipt, result) {
    // The stake is the pool's to show (queryUserStake); a deposit adds nothing to the result.
    return result;
  },
};

export const stakingWithdraw: Planner<"staking.withdraw"> = {
  async plan(ctx, { poolId }) {
    const { client, contracts, wallet } = ctx;
    const pool = catalogued(poolId);
    const staking = { address: contracts.staking, abi: fireStakingAbi } as const;
    const [info, [staked, rewards], now] = await Promise.all([
      poolInfo(ctx, pool),
      client.readContract({ ...staking, functionName: "queryUserStake", args: [BigInt(pool.id), wallet] }),
      client.readContract({ ...staking, functionName: "getBlockchainTime" }),
    ]);
    checkWithdraw(pool, { now, endVaultTime: info.endVaultTime, staked });
    const boxes = Number(rewards);
    const claim = boxes > 0 ? ` and claim ${plural(boxes, pool.rewardBoxName)}` : "";
    return [
      {
        kind: "withdraw",
        label: `Withdraw ${formatPrice(staked, "FIRE")}${claim} from the ${pool.title}`,
        to: contracts.staking,
        data: encodeFunctionData({ abi: fireStakingAbi, functionName: "withdrawAndClaim", args: [BigInt(pool.id)] }),
        value: 0n,
        gas: stepGasLimit("withdraw", boxes),
      },
    ];
  },

  async collect({ contracts }, kind, receipt, result) {
    if (kind !== "withdraw") return result;
    const withdrawn = withdrawnFromReceipt(receipt.logs, contracts.staking);
    if (!withdrawn) return result;
    return { ...result, amountReturned: withdrawn.amount.toString(), rewardBoxIds: withdrawn.rewardBoxIds.map(String) };
  },
};
