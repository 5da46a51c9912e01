/**
 * How the market backend stores wei (core/money.ts has the currencies and the parsing shared with the app).
 * Sorted/compared prices are stored as TEXT zero-padded to 78 digits (uint256 max has 78), so that
 * text order and range comparisons are numeric on both engines (SQLite compares text bytewise, and PostgreSQL's
 * text columns are `collate "C"`).
 */
import { UINT256_MAX } from "~core/money";

export const WEI_DIGITS = 78;

/** Sortable 78-digit form of a wei amount (0 ≤ wei ≤ uint256 max). */
export function padWei(wei: bigint): string {
  if (wei < 0n || wei > UINT256_MAX) throw new RangeError(`wei out of range: ${wei}`);
  return wei.toString().padStart(WEI_DIGITS, "0");
}

/** Reads a stored wei amount (padded or plain decimal). */
export function readWei(text: string): bigint {
  return BigInt(text);
}
