/**
 * What every wallet island shares around viem: the clients a transaction sequence runs with, and wallet, node and
 * contract errors in plain words (the contracts' own errors through core/chain-errors.ts). Kept apart from React so
 * the unit tests can feed them real encodings.
 */
import { BaseError, ContractFunctionRevertedError, type Account, type Chain, type Client, type Transport } from "viem";
import { revertMessage } from "~core/chain-errors";

/** The clients a sequence runs with: the island passes its wallet's, the contract tests anvil's. */
export interface WalletClients {
  /** Reads, simulations and receipts, from the node. */
  publicClient: Client<Transport, Chain>;
  /** Sends the transactions, as its account. */
  walletClient: Client<Transport, Chain, Account>;
}

/** A failure the user should read as is (a product §5 message, say), not a wallet or node error. */
export class ShownError extends Error {}

/** An error from the wallet, the node or a contract, in plain words. */
export function chainErrorMessage(error: unknown): string {
  if (error instanceof ShownError) return error.message;
  if (error instanceof BaseError) {
    const rejected = error.walk((e) => (e as { code?: number }).code === 4001);
    if (rejected) return "You cancelled the request in your wallet.";
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError && revert.data?.errorName) {
      return revertMessage(revert.data.errorName, revert.data.args ?? []);
    }
    return error.shortMessage;
  }
  if ((error as { code?: number })?.code === 4001) return "You cancelled the request in your wallet.";
  return error instanceof Error ? error.message : "Something went wrong.";
}
