/**
 * Money is wei as bigint inside the backend and a decimal string in JSON; never a float.
 * Sorted/compared prices are stored as TEXT zero-padded to 78 digits (uint256 max has 78), so that
 * SQLite's text order and range comparisons are numeric.
 */
export const CURRENCIES = ["FIRE", "QUARK", "USDT", "BNB"] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = "FIRE";

export const UINT256_MAX = 2n ** 256n - 1n;
export const WEI_DIGITS = 78;
export const WEI_PER_TOKEN = 10n ** 18n;

export function isCurrency(value: string): value is Currency {
  return (CURRENCIES as readonly string[]).includes(value);
}

/** Sortable 78-digit form of a wei amount (0 ≤ wei ≤ uint256 max). */
export function padWei(wei: bigint): string {
  if (wei < 0n || wei > UINT256_MAX) throw new RangeError(`wei out of range: ${wei}`);
  return wei.toString().padStart(WEI_DIGITS, "0");
}

/** Reads a stored wei amount (padded or plain decimal). */
export function readWei(text: string): bigint {
  return BigInt(text);
}

/** Parses a canonical uint256 decimal string; undefined when it is not one. */
export function parseUint256(text: string): bigint | undefined {
  if (!/^\d{1,78}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value <= UINT256_MAX ? value : undefined;
}
