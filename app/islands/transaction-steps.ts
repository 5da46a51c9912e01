/**
 * What the browser-wallet sequences of the bridge and the fleet share: following one transaction to its receipt while
 * the island reports its state, an exact ERC-20 approval when the allowance is short, and an operator approval on a collection.
 */
import type { Address, Hash } from "viem";
import { readContract, waitForTransactionReceipt, writeContract } from "viem/actions";
import { gameTokenAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import type { StepState } from "./transaction-parts";
import { ShownError, type WalletClients } from "~/islands/chain-errors";

export type StepReport<S extends string> = (step: S, state: StepState) => void;

/** Pending until mined, then confirmed; a reverted transaction is a failure in words. No timeout: a slow chain is the wallet's to show. */
export async function confirmed<S extends string>(clients: WalletClients, step: S, hash: Hash, report: StepReport<S>) {
  report(step, "pending");
  const receipt = await waitForTransactionReceipt(clients.publicClient, { hash, timeout: 0 });
  if (receipt.status !== "success") throw new ShownError("The transaction failed on the chain.");
  report(step, "confirmed");
  return receipt;
}

/** Approves `spender` for exactly `amount` of `token`, reported as `step`, unless the allowance covers it already. */
export async function approveExactly<S extends string>(
  clients: WalletClients,
  { token, spender, amount }: { token: Address; spender: Address; amount: bigint },
  step: S,
  report: StepReport<S>,
): Promise<void> {
  const owner = clients.walletClient.account;
  const allowance = await readContract(clients.publicClient, {
    address: token,
    abi: gameTokenAbi,
    functionName: "allowance",
    args: [owner.address, spender],
  });
  if (allowance >= amount) return;
  report(step, "wallet");
  const hash = await writeContract(clients.walletClient, {
    address: token,
    abi: gameTokenAbi,
    functionName: "approve",
    args: [spender, amount],
    account: owner,
    chain: clients.walletClient.chain,
  });
  await confirmed(clients, step, hash, report);
}

/**
 * Approves `operator` for all the wallet's tokens of `collection`, reported as `step`, unless it is already. ERC-721 and
 * ERC-1155 share the two functions (SparkItems' ABI serves both).
 */
export async function approveOperator<S extends string>(
  clients: WalletClients,
  { collection, operator }: { collection: Address; operator: Address },
  step: S,
  report: StepReport<S>,
): Promise<void> {
  const owner = clients.walletClient.account;
  const target = { address: collection, abi: sparkItemsAbi } as const;
  const approved = await readContract(clients.publicClient, {
    ...target,
    functionName: "isApprovedForAll",
    args: [owner.address, operator],
  });
  if (approved) return;
  report(step, "wallet");
  const hash = await writeContract(clients.walletClient, {
    ...target,
    functionName: "setApprovalForAll",
    args: [operator, true],
    account: owner,
    chain: clients.walletClient.chain,
  });
  await confirmed(clients, step, hash, report);
}
