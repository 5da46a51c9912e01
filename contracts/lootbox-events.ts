/**
 * The loot box flow's results read from receipts (product §4): the box ids a purchase minted and the item ids the
 * opened boxes minted. Shared by the browser-wallet island and the SSO executor, so both read the same events.
 */
import { parseEventLogs, type Log } from "viem";
import { sameAddress } from "~core/address";
import { blindBoxAbi, blindBoxOpenerAbi } from "./generated/abi";

/** The ids the purchase minted, from the box contract's BlindBoxForged events. */
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
