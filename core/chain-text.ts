/**
 * The chain words every loot box page shows (product §5's balance refusal, chain times), apart from the rest of
 * chain-errors.ts, which re-exports them: the pages' rules import only this, so they do not download every
 * contract error's wording (nor the pools and money modules those need) with the page.
 */

export const INSUFFICIENT_BALANCE = "Transaction failed. You do not have enough balance.";

/** A date as the site writes every time: "2026-11-20 14:03 UTC" (the same on the server and in every browser). */
export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** An ISO 8601 time from an API as formatUtc writes it; text that is no date is shown as it came. */
export function formatIsoTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatUtc(date);
}

/** A unix time in seconds as formatUtc writes it. */
export function formatChainTime(seconds: bigint): string {
  return formatUtc(new Date(Number(seconds) * 1000));
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
