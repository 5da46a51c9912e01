/**
 * What the managed wallet's buy form offers (product §5, §9), worked out by the loader so the page formats
 * nothing: the currencies both the catalogue and the sale take, with their prices, and the total of every
 * quantity the limits allow now.
 */
import type { LootBoxEntry, PaymentCurrency } from "~core/boxes";
import { formatPrice } from "~core/money";

export interface BuyOffer {
  /** Currencies the box takes, each with its price of one box ("10 USDT"). */
  currencies: { currency: PaymentCurrency; each: string }[];
  /** For 1..maxQuantity boxes, the total in every accepted currency ("20 USDT · 0.06 BNB"). */
  totals: string[];
  maxQuantity: number;
  /** Why nothing may be bought now, when that is so. */
  blockedNote: string | null;
  /** How many more the 24 h limit allows, for the hint beside the quantity. */
  remainingToday: number | null;
}

/** `limits` as lootbox-rules.ts purchaseLimits reads them, and its purchaseBlockedNote. */
export function buyOffer(
  entry: LootBoxEntry,
  prices: Partial<Record<PaymentCurrency, bigint>>,
  limits: { maxQuantity: number; remainingToday: number | null },
  blockedNote: string | null,
): BuyOffer {
  // The catalogue's order, headline currency first; a currency the sale has no price for is not offered.
  const accepted = entry.currencies.flatMap((currency) => {
    const price = prices[currency];
    return price === undefined ? [] : [{ currency, price }];
  });
  const totals = Array.from({ length: limits.maxQuantity }, (_, index) =>
    accepted.map(({ currency, price }) => formatPrice(price * BigInt(index + 1), currency)).join(" · "),
  );
  return {
    currencies: accepted.map(({ currency, price }) => ({ currency, each: formatPrice(price, currency) })),
    totals: accepted.length ? totals : [],
    maxQuantity: accepted.length ? limits.maxQuantity : 0,
    blockedNote,
    remainingToday: limits.remainingToday,
  };
}
