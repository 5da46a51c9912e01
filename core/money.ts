/**
 * Token amounts: bigint wei end to end, decimal text only at the edges (JSON, URLs, inputs, display).
 * Pure and dependency-free, so the browser bundle, the server and the backends all use it.
 */
import { TOKEN_DECIMALS } from "./constants";

/** The currencies a listing can be priced in (product §1). */
export const CURRENCIES = ["FIRE", "QUARK", "USDT", "BNB"] as const;
export type Currency = (typeof CURRENCIES)[number];
/** A listing's currency when the seller names none. */
export const DEFAULT_CURRENCY: Currency = "FIRE";

export function isCurrency(value: string): value is Currency {
  return (CURRENCIES as readonly string[]).includes(value);
}

export const UINT256_MAX = 2n ** 256n - 1n;
export const WEI_PER_TOKEN = 10n ** BigInt(TOKEN_DECIMALS);

/**
 * Wei → decimal text without trailing zeros ("12.5", "0.000001", "3"). `group` adds thousands separators
 * to the integer part for display; URLs and inputs use the plain form.
 */
export function formatWei(
  wei: bigint | string,
  { decimals = TOKEN_DECIMALS, group = false, maxFraction = decimals }: { decimals?: number; group?: boolean; maxFraction?: number } = {},
): string {
  const value = typeof wei === "bigint" ? wei : BigInt(wei);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const base = 10n ** BigInt(decimals);
  const whole = (abs / base).toString();
  // maxFraction cuts (never rounds up) the digits shown, for chart labels and such.
  const fraction = (abs % base).toString().padStart(decimals, "0").slice(0, maxFraction).replace(/0+$/, "");
  const wholeText = group ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") : whole;
  return `${negative ? "-" : ""}${wholeText}${fraction ? `.${fraction}` : ""}`;
}

/**
 * "1,234.5 FIRE": a price or balance for display, grouped, with every significant decimal. Never cut: a price
 * is what a wallet signs, and a balance read against it must show the same digits.
 */
export function formatPrice(wei: bigint | string, currency: string | null | undefined): string {
  return `${formatWei(wei, { group: true })}${currency ? ` ${currency}` : ""}`;
}

/**
 * Decimal text a person typed ("12.5", ".5", "0012") → wei, with bigint math only.
 * Undefined for anything else: signs, exponents, separators, more fraction digits than the token has,
 * or more than uint256 can hold.
 */
export function parseTokenAmount(text: string, decimals = TOKEN_DECIMALS): bigint | undefined {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, whole = "", fraction = ""] = match;
  if (!whole && !fraction) return undefined;
  if (whole.length > 78 || fraction.length > decimals) return undefined;
  const wei = BigInt(whole || "0") * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
  return wei <= UINT256_MAX ? wei : undefined;
}

/** A wei amount as the APIs write it (a canonical uint256 decimal string) → bigint; undefined when it is not one. */
export function parseUint256(text: string): bigint | undefined {
  if (!/^\d{1,78}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value <= UINT256_MAX ? value : undefined;
}
