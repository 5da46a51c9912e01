/**
 * The chain words every loot box page shows (product §5's balance refusal, chain times), apart from the rest of
 * chain-errors.ts, which re-exports them: the pages' rules import only this, so they do not download every
 * contract error's wording (nor the pools and money modules those need) with the page.
 */

export const INSUFFICIENT_BALANCE = "Transaction failed. You do not have enough balance.";

/** A unix time in seconds as a UTC date and time (the same on the server and in every browser). */
export function formatChainTime(seconds: bigint): string {
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
