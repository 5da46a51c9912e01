/**
 * The loot box flow's results read from receipts (product §4): the box ids a purchase minted, what it paid, the
 * boxes opened and the item ids they minted. Shared by the browser-wallet island, the app's analytics reports and
 * the SSO executor, so all read the same events.
 */
import { parseEventLogs, type Log } from "viem";
import { sameAddress } from "~core/address";
import type { BoxPurchase } from "~core/analytics";
import type { PaymentCurrency } from "~core/boxes";
import type { ContractAddresses } from "~core/contracts";
import { blindBoxAbi, blindBoxOpenerAbi, blindBoxSaleAbi } from "./generated/abi";

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

type SaleContracts = Pick<ContractAddresses, "boxSale" | "usdt" | "quark">;

/** The sale's currency for the token its event names: the zero address is BNB; any other token is none of ours. */
function currencyOf(token: string, contracts: SaleContracts): PaymentCurrency | null {
  if (/^0x0{40}$/i.test(token)) return "BNB";
  if (sameAddress(token, contracts.usdt)) return "USDT";
  if (sameAddress(token, contracts.quark)) return "QUARK";
  return null;
}

/** The purchase a receipt's logs record: our sale's first BoxesPurchased event, else null. */
export function boxPurchaseFromLogs(txHash: string, logs: readonly Log[], contracts: SaleContracts): BoxPurchase | null {
  const events = parseEventLogs({ abi: blindBoxSaleAbi, eventName: "BoxesPurchased", logs: logs as Log[] }).filter((log) =>
    sameAddress(log.address, contracts.boxSale),
  );
  for (const { args } of events) {
    const currency = currencyOf(args.token, contracts);
    if (!currency || args.quantity === 0n) continue;
    return {
      txHash: txHash.toLowerCase(),
      buyer: args.buyer,
      typeBox: Number(args.boxType),
      quantity: Number(args.quantity),
      currency,
      amountPaid: args.amountPaid,
    };
  }
  return null;
}

/** The ids of the boxes `owner` opened, from our opener's BoxOpened events in a receipt's logs. */
export function openedBoxesFromLogs(logs: readonly Log[], opener: string, owner: string): string[] {
  return parseEventLogs({ abi: blindBoxOpenerAbi, eventName: "BoxOpened", logs: logs as Log[] })
    .filter((log) => sameAddress(log.address, opener) && sameAddress(log.args.owner, owner))
    .map((log) => log.args.boxId.toString());
}
