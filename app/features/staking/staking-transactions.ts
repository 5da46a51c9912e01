/**
 * The loyalty staking sequences of issue 13 as plain functions over viem clients: deposit (the pool must take
 * deposits by the chain's clock, the balance must cover the amount, FIRE approved for exactly the amount when the
 * allowance is short, then the deposit) and withdrawAndClaim (stake back, reward boxes forged). No React and no
 * wagmi: the island passes its wallet's clients, the contract tests pass anvil's. Refusals of their own are
 * StakingErrors in the words of core/chain-errors.ts; wallet, node and contract errors pass through for
 * chainErrorMessage.
 */
import { isAddressEqual, parseEventLogs, type Address, type Hash, type TransactionReceipt } from "viem";
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from "viem/actions";
import { fireStakingAbi, gameTokenAbi, sparkErrorsAbi } from "../../../contracts/generated/abi";
import { INSUFFICIENT_BALANCE, revertMessage } from "~core/chain-errors";
import { ShownError, type WalletClients } from "~/islands/chain-errors";

/** The node for reads and receipts, the wallet for transactions (the same pair as the loot box sequences). */
export type StakingClients = WalletClients;

export interface StakingContracts {
  fire: Address;
  staking: Address;
}

/** The transactions of the two sequences. */
export type StakingStep = "approve" | "deposit" | "withdraw";
/** "wallet": waiting for the user to confirm in the wallet; "pending": sent, waiting for its block; "confirmed": mined. */
export type StepState = "wallet" | "pending" | "confirmed";
/** Tells the island where a sequence is, so it can show each transaction's state. */
export type StepReport = (step: StakingStep, state: StepState, txHash?: Hash) => void;

export type StakingFailure = "not-open" | "zero-amount" | "insufficient-balance" | "reverted";

/** Why a staking sequence stopped before sending anything (or a transaction that failed on the chain). */
export class StakingError extends ShownError {
  constructor(
    readonly code: StakingFailure,
    message: string,
  ) {
    super(message);
  }
}

/** FireStaking's `status` while it takes deposits (see the contract). */
const STATUS_STAKING = 1;
const stakingAbi = [...fireStakingAbi, ...sparkErrorsAbi] as const;
const silent: StepReport = () => {};

export interface Deposit {
  /** Whether the FIRE allowance had to be raised first. */
  approved: boolean;
  txHash: Hash;
  /** The account's whole stake in the pool and the reward boxes it has earned, after this deposit. */
  stake: bigint;
  rewardBoxes: bigint;
}

export interface Withdrawal {
  txHash: Hash;
  /** The FIRE returned and the ids of the reward boxes forged to the account. */
  amount: bigint;
  rewardBoxIds: bigint[];
}

async function confirmed(clients: StakingClients, step: StakingStep, hash: Hash, report: StepReport): Promise<TransactionReceipt> {
  report(step, "pending", hash);
  // No timeout: a slow chain is the wallet's to show, not a failure.
  const receipt = await waitForTransactionReceipt(clients.publicClient, { hash, timeout: 0 });
  if (receipt.status !== "success") throw new StakingError("reverted", "The transaction failed on the chain.");
  report(step, "confirmed", hash);
  return receipt;
}

/** The staking contract's logs in the receipt: a sequence reads its own event there. */
const stakingLogs = (receipt: TransactionReceipt, staking: Address) => receipt.logs.filter((log) => isAddressEqual(log.address, staking));
const notRecorded = () => new StakingError("reverted", "The transaction was confirmed, but the pool did not record it. Reload the page.");

/** Stakes `amount` FIRE wei in `poolId` for the wallet's account, approving exactly the amount first when needed. */
export async function depositStake(
  clients: StakingClients,
  contracts: StakingContracts,
  { poolId, amount }: { poolId: number; amount: bigint },
  report = silent,
): Promise<Deposit> {
  const { publicClient, walletClient } = clients;
  const owner = walletClient.account;
  const pool = BigInt(poolId);
  if (amount <= 0n) throw new StakingError("zero-amount", revertMessage("ZeroAmount", []));
  const [info, balance, allowance] = await Promise.all([
    readContract(publicClient, { address: contracts.staking, abi: stakingAbi, functionName: "queryPoolInfo", args: [pool] }),
    readContract(publicClient, { address: contracts.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [owner.address] }),
    readContract(publicClient, {
      address: contracts.fire,
      abi: gameTokenAbi,
      functionName: "allowance",
      args: [owner.address, contracts.staking],
    }),
  ]);
  // Checked before the approval, so a closed pool never costs the user an approval transaction.
  if (info.status !== STATUS_STAKING) throw new StakingError("not-open", revertMessage("StakingNotOpen", [pool, info.status]));
  if (balance < amount) throw new StakingError("insufficient-balance", INSUFFICIENT_BALANCE);
  const approved = allowance < amount;
  if (approved) {
    report("approve", "wallet");
    const hash = await writeContract(walletClient, {
      address: contracts.fire,
      abi: gameTokenAbi,
      functionName: "approve",
      args: [contracts.staking, amount],
    });
    await confirmed(clients, "approve", hash, report);
  }
  report("deposit", "wallet");
  // Simulated first, so a refusal (staking closed since the check, say) comes back decoded, not as a failed transaction.
  const { request } = await simulateContract(publicClient, {
    account: owner,
    address: contracts.staking,
    abi: stakingAbi,
    functionName: "deposit",
    args: [pool, amount],
  });
  const txHash = await writeContract(walletClient, request);
  const receipt = await confirmed(clients, "deposit", txHash, report);
  const [event] = parseEventLogs({ abi: fireStakingAbi, logs: stakingLogs(receipt, contracts.staking), eventName: "Deposited" });
  if (!event) throw notRecorded();
  const { stakingNumber, nftNumber } = event.args;
  return { approved, txHash, stake: stakingNumber, rewardBoxes: nftNumber };
}

/** After the vault period: returns the account's whole stake in `poolId` and forges its reward boxes. */
export async function withdrawAndClaim(
  clients: StakingClients,
  contracts: StakingContracts,
  poolId: number,
  report = silent,
): Promise<Withdrawal> {
  const { publicClient, walletClient } = clients;
  report("withdraw", "wallet");
  // The simulation brings back the contract's refusal (vault still locked, nothing staked) before anything is sent.
  const { request } = await simulateContract(publicClient, {
    account: walletClient.account,
    address: contracts.staking,
    abi: stakingAbi,
    functionName: "withdrawAndClaim",
    args: [BigInt(poolId)],
  });
  const txHash = await writeContract(walletClient, request);
  const receipt = await confirmed(clients, "withdraw", txHash, report);
  const [event] = parseEventLogs({ abi: fireStakingAbi, logs: stakingLogs(receipt, contracts.staking), eventName: "Withdrawn" });
  if (!event) throw notRecorded();
  const { amount, rewardBoxIds } = event.args;
  return { txHash, amount, rewardBoxIds: [...rewardBoxIds] };
}
