/**
 * A sponsored action's network fee as its review page shows it (decision 0038): what the action does, the fee in the
 * token to the wei (the fee shown is the fee taken), what the action spends of that token, the total, and until when
 * the fee holds. Pure, so the words are tested without a page.
 */
import type { GasQuote } from "~core/api/actions";
import { formatPrice } from "~core/money";

export interface FeeReview {
  steps: string[];
  /** "3.25 FIRE", exact; null when the site covers the fee. */
  fee: string | null;
  /** The BNB the site sends for the gas. */
  gas: string;
  /** What the action spends of the fee's token, when it spends any. */
  spends: string | null;
  /** The fee and what the action spends of its token, together. */
  total: string;
  /** "2026-11-29 10:15 UTC". */
  expiresAt: string;
  expired: boolean;
}

export function feeReview(quote: GasQuote): FeeReview {
  const fee = BigInt(quote.fee);
  const spends = BigInt(quote.spends);
  return {
    steps: quote.labels,
    fee: fee > 0n ? formatPrice(fee, quote.token) : null,
    gas: formatPrice(quote.gas, "BNB"),
    spends: spends > 0n ? formatPrice(spends, quote.token) : null,
    total: formatPrice(fee + spends, quote.token),
    expiresAt: `${quote.expiresAt.slice(0, 10)} ${quote.expiresAt.slice(11, 16)} UTC`,
    expired: quote.status === "expired",
  };
}
