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
 * "1,234.5 FIRE": a price that a person set (a listing, an order a wallet signs, a typed amount), grouped, with
 * every decimal. Never rounded: it is what the wallet signs. Balances and computed amounts use formatAmount.
 */
export function formatPrice(wei: bigint | string, currency: string | null | undefined): string {
  return `${formatWei(wei, { group: true })}${currency ? ` ${currency}` : ""}`;
}

/**
 * How a balance or computed amount is rounded for display (issue 23): a balance down, so it never shows more than
 * is there; a cost (an amount the user must pay) up, so it never shows less than the chain will take.
 */
export type AmountKind = "balance" | "cost";

/** Fraction digits kept: this many significant ones, counted after the leading zeros of an amount below one token. */
export const SHOWN_DECIMALS = 4;

/** `wei` rounded to SHOWN_DECIMALS significant decimals: its magnitude down for a balance, up for a cost. */
export function roundForDisplay(wei: bigint, kind: AmountKind, decimals = TOKEN_DECIMALS): bigint {
  const negative = wei < 0n;
  const abs = negative ? -wei : wei;
  const base = 10n ** BigInt(decimals);
  // Below one token, the first non-zero decimal counts as the first significant one.
  const leadingZeros = abs >= base || abs === 0n ? 0 : decimals - abs.toString().length;
  const kept = Math.min(decimals, leadingZeros + SHOWN_DECIMALS);
  const unit = 10n ** BigInt(decimals - kept);
  const down = (abs / unit) * unit;
  const rounded = kind === "cost" && down !== abs ? down + unit : down;
  return negative ? -rounded : rounded;
}

/** "9,999.9995 BNB" for a balance of 9,999.999535… BNB; "27.9223 FIRE" for a cost of 27.92222… FIRE. */
export function formatAmount(wei: bigint | string, currency: string | null | undefined, kind: AmountKind): string {
  return formatPrice(roundForDisplay(typeof wei === "bigint" ? wei : BigInt(wei), kind), currency);
}

/** A balance or computed amount as a page shows it: the rounded text, and the exact amount one step away (its title). */
export interface ShownAmount {
  text: string;
  /** Every decimal; equal to `text` when nothing was rounded away. */
  exact: string;
}

export function shownAmount(wei: bigint | string, currency: string | null | undefined, kind: AmountKind): ShownAmount {
  return { text: formatAmount(wei, currency, kind), exact: formatPrice(wei, currency) };
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
