/**
 * The loot box island's own refusals and its NFT contract check; wallet, node and contract errors in words are
 * islands/chain-errors.ts's. The receipts' events are read by contracts/lootbox-events.ts.
 */
import { isAddress, zeroAddress, type Address } from "viem";
import { ShownError } from "~/islands/chain-errors";

/** Product §5: an NFT action needs a contract address for its NFT type; null when none is configured. */
export function erc721Address(address: string | null | undefined): Address | null {
  return address && isAddress(address) && address.toLowerCase() !== zeroAddress ? address : null;
}

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
