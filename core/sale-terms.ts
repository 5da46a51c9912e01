/**
 * The loot box sale's terms as the pages state them (product §7, decision 0018): which price a buyer pays and why,
 * when a box type goes on sale, and which opener call opens "N boxes of this type". Pure, so the server, the
 * executor and the browser island read them alike; no viem, since the always-loaded pages import it.
 */
import { formatChainTime, formatDuration } from "./chain-text";

/** BlindBoxSale.PriceKind: the list price or one of the two variants. */
export const SALE_PRICE_KIND = { list: 0, pse: 1, whitelist: 2 } as const;
export type SalePriceKind = (typeof SALE_PRICE_KIND)[keyof typeof SALE_PRICE_KIND];

/** Why the buyer pays the price the page shows; null for the list price. */
export function priceReason(kind: number): string | null {
  if (kind === SALE_PRICE_KIND.pse) return "PSE holder price";
  if (kind === SALE_PRICE_KIND.whitelist) return "Whitelist price";
  return null;
}

export type SaleOpening = { open: true } | { open: false; opensAt: string; countdown: string };

/**
 * Whether a box type is on sale at `now` (the chain's time, unix seconds), and if not, when it opens: "2026-12-01
 * 12:00 UTC" and "2 d 3 h", rounded down to what a countdown of days and hours (or minutes, within the hour) says.
 */
export function saleOpening(startsAt: bigint, now: bigint): SaleOpening {
  if (now >= startsAt) return { open: true };
  const left = startsAt - now;
  const shown = left >= 3_600n ? left - (left % 3_600n) : left >= 60n ? left - (left % 60n) : left;
  return { open: false, opensAt: formatChainTime(startsAt), countdown: formatDuration(shown).replace(/( 0 [hms])+$/, "") };
}

/** The refusal of a purchase before the box type's start date (the server's and the contract's SaleNotStarted). */
export function saleNotStartedMessage(startsAt: bigint): string {
  return `This box is not on sale yet: it goes on sale at ${formatChainTime(startsAt)}.`;
}

/**
 * The opener call for "open N boxes of type X" (decision 0018): batchOpen(count) opens the wallet's latest boxes
 * whatever their type, so it is used only when every box the wallet holds is of that type; otherwise
 * batchOpenOfType names the type.
 */
export function openByCount(
  typeBox: number,
  count: number,
  heldTypes: readonly number[],
): { functionName: "batchOpen"; args: readonly [bigint] } | { functionName: "batchOpenOfType"; args: readonly [bigint, bigint] } {
  return heldTypes.every((type) => type === typeBox)
    ? { functionName: "batchOpen", args: [BigInt(count)] }
    : { functionName: "batchOpenOfType", args: [BigInt(typeBox), BigInt(count)] };
}
