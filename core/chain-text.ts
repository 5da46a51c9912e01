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

/** A span of seconds as a countdown reads it: "13 d 4 h 5 m 6 s", "5 m 6 s", "6 s"; "0 s" for none or less. */
export function formatDuration(seconds: bigint | number): string {
  let left = Math.max(0, Math.floor(Number(seconds)));
  const parts: string[] = [];
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ] as const) {
    const count = Math.floor(left / size);
    left -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count} ${unit}`);
  }
  return parts.length ? parts.join(" ") : "0 s";
}
