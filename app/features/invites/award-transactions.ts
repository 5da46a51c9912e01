/**
 * A browser wallet's award claim (issue 29): submit an award the game signed to the reward manager's awardClaim. The
 * simulation brings back the contract's refusal (paid already, expired) before the wallet is asked; wallet, node and
 * contract errors pass through for chainErrorMessage.
 */
import type { Address, Hash, Hex } from "viem";
import { simulateContract, writeContract } from "viem/actions";
import { rewardManagerAbi, sparkErrorsAbi } from "../../../contracts/generated/abi";
import type { SignedClaimWire } from "~core/api/market";
import { confirmed, type StepReport } from "~/islands/transaction-steps";
import type { WalletClients } from "~/islands/chain-errors";

const managerAbi = [...rewardManagerAbi, ...sparkErrorsAbi] as const;

export async function submitAward(
  clients: WalletClients,
  rewardManager: Address,
  claim: SignedClaimWire,
  report: StepReport<"claim">,
): Promise<Hash> {
  const account = clients.walletClient.account;
  report("claim", "wallet");
  const { request } = await simulateContract(clients.publicClient, {
    account,
    address: rewardManager,
    abi: managerAbi,
    functionName: "awardClaim",
    args: [account.address, claim.claim_content as Hex, Number(BigInt(claim.v)), claim.r as Hex, claim.s as Hex],
  });
  const hash = await writeContract(clients.walletClient, request);
  await confirmed(clients, "claim", hash, report);
  return hash;
}
