/**
 * Pure helpers of the loot box island around viem: wallet, node and contract errors in plain words (the
 * contracts' own errors through core/chain-errors.ts). Kept apart from React so the unit tests can feed them
 * real encodings. The receipts' events are read by contracts/lootbox-events.ts.
 */
import { BaseError, ContractFunctionRevertedError, isAddress, zeroAddress, type Address } from "viem";
import { revertMessage } from "~core/chain-errors";

/** Product §5: an NFT action needs a contract address for its NFT type; null when none is configured. */
export function erc721Address(address: string | null | undefined): Address | null {
  return address && isAddress(address) && address.toLowerCase() !== zeroAddress ? address : null;
}

/** A failure the user should read as is (a product §5 message, say), not a wallet or node error. */
export class ShownError extends Error {}

/** Why a loot box sequence stopped on its own (lootbox-transactions.ts); the message is the product's. */
export type LootboxFailure = "insufficient-balance" | "invalid-erc721" | "nothing-to-open" | "reverted";

export class LootboxError extends ShownError {
  constructor(
    readonly code: LootboxFailure,
    message: string,
  ) {
    super(message);
  }
}

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
