/**
 * Pure helpers of the loot box island around viem: box and item ids from a receipt's events, and contract
 * errors in the product's words. Kept apart from React so the unit tests can feed them real encodings.
 */
import { BaseError, ContractFunctionRevertedError, isAddress, parseEventLogs, zeroAddress, type Address, type Log } from "viem";
import { blindBoxAbi, blindBoxOpenerAbi } from "../../contracts/generated/abi";
import { boxTitle } from "~core/boxes";
import { formatChainTime, INSUFFICIENT_BALANCE } from "~/components/lootbox/rules";
import { sameAddress } from "~core/address";

/** Product §5: an NFT action needs a contract address for its NFT type; null when none is configured. */
export function erc721Address(address: string | null | undefined): Address | null {
  return address && isAddress(address) && address.toLowerCase() !== zeroAddress ? address : null;
}

/** Product §4 loot box flow: the ids the purchase minted, from the box contract's BlindBoxForged events. */
export function boxIdsFromReceipt(logs: readonly Log[], boxAddress: string): bigint[] {
  return parseEventLogs({ abi: blindBoxAbi, eventName: "BlindBoxForged", logs: logs as Log[] })
    .filter((log) => sameAddress(log.address, boxAddress))
    .map((log) => log.args.boxId);
}

/** The item ids each opened box minted, from the opener's BoxOpened events, in order. */
export function openedItemIds(logs: readonly Log[], openerAddress: string): bigint[] {
  return parseEventLogs({ abi: blindBoxOpenerAbi, eventName: "BoxOpened", logs: logs as Log[] })
    .filter((log) => sameAddress(log.address, openerAddress))
    .flatMap((log) => [...log.args.mintedIds]);
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

function revertMessage(name: string, args: readonly unknown[]): string | null {
  switch (name) {
    case "InsufficientBalance":
      return INSUFFICIENT_BALANCE;
    case "DailyLimitExceeded": {
      const [boxType, bought, limit, resetsAt] = args as [bigint, bigint, bigint, bigint];
      return `${boxTitle(Number(boxType))}: at most ${limit} per player per 24 hours, and you have bought ${bought}. You can buy again after ${formatChainTime(resetsAt)}.`;
    }
    case "SoldOut":
      return "Not enough boxes of this type are left.";
    case "CurrencyNotAccepted":
      return "This box cannot be paid with that currency.";
    case "SaleNotStarted":
      return "The sale has not started yet.";
    case "BoxTypeNotForSale":
      return "This box type is not for sale.";
    case "InsufficientAllowance":
      return "The payment was not approved: approve it in your wallet and try again.";
    case "WrongNativeAmount":
      return "The BNB sent did not match the price. Reload the page for the current price.";
    case "OpenerNotApproved":
      return "The opener is not approved to open your boxes yet.";
    case "NotBoxOwner":
    case "NotEnoughBoxes":
      return "Some of these boxes are no longer yours to open. Reload the page to see your boxes.";
    default:
      return null;
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
      return revertMessage(revert.data.errorName, revert.data.args ?? []) ?? `The contract refused: ${revert.data.errorName}.`;
    }
    return error.shortMessage;
  }
  if ((error as { code?: number })?.code === 4001) return "You cancelled the request in your wallet.";
  return error instanceof Error ? error.message : "Something went wrong.";
}
