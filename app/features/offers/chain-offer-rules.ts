/**
 * Offers on chain-held items from the pages (issue 30, decision 0024): the rules the offers action follows, pure so
 * they are unit-tested. A chain offer is paid from the buyer's wallet in an ERC-20, never escrowed: the trading
 * contract pulls the price at acceptance, so the buyer's allowance must cover every open chain offer in that currency.
 */
import type { OfferRecord } from "~core/api/offers";
import { isCurrency, parseTokenAmount, type Currency } from "~core/money";
import { CARD_COLLECTION_TYPES } from "~core/nft";
import { LISTING_DURATIONS } from "~core/orders";
import { offerCriteria } from "~core/trading";
import { PAY_FROM, type PayFrom } from "./chain-offer-words";

export { CHAIN_OFFER_BNB, CHAIN_OFFER_CURRENCIES, chainOfferNoFunds, PAY_FROM, type PayFrom } from "./chain-offer-words";
export const CHAIN_UNPAYABLE = "Can no longer be paid: the buyer’s wallet balance or allowance on chain is below this price.";
export const CHAIN_OFFER_UNPAYABLE = "The buyer can no longer pay this offer, so it cannot be accepted.";
export const CHAIN_OFFER_ITEMS = "Offers on chain are made on cards and loot boxes.";
export const CHAIN_OFFERS_MANAGED_ONLY =
  "These offer forms are for accounts with a managed wallet. With a browser wallet, sign and accept offers on chain with your wallet (it needs JavaScript).";

/** Whether a market view of one type may be offered on from the wallet on chain: the card collection's types only. */
export const chainCollectionOfferable = (nftType: number) => CARD_COLLECTION_TYPES.includes(nftType);

/**
 * The allowance the trading contract needs from the buyer for a new offer of `price` in `currency`: its price plus
 * every open chain offer of the buyer's in that currency (each may be accepted), so the approval never starves one.
 */
export function chainOfferAllowance(mine: readonly OfferRecord[], currency: string, price: bigint, nowSeconds: number): bigint {
  return mine
    .filter((offer) => offer.venue === "chain" && offer.status === "active" && offer.expiry > nowSeconds && offer.currency === currency)
    .reduce((total, offer) => total + BigInt(offer.price), price);
}

/** What a chain offer names: one token (`dataMask` 0), or any card of one type (tokenId 0, the type byte pinned). */
export function chainOfferCriteria(target: { tokenId: string } | { nftType: number }) {
  if ("tokenId" in target) return { tokenId: BigInt(target.tokenId), dataMask: 0n, dataValue: 0n };
  return { tokenId: 0n, ...offerCriteria(target.nftType) };
}

/** An offer as typed, carried past the executor's approval so that the buyer need not type it again. */
export type PendingOffer = {
  price: string;
  currency: Currency;
  days: string;
  payFrom: PayFrom;
};

/** The query names of a pending offer on the offers page's URL (the market view's own filter names never start with "offer"). */
const PENDING_PARAMS = { price: "offerPrice", currency: "offerCurrency", days: "offerDays", payFrom: "offerPayFrom" } as const;

/** `page` (a path with its query) with the offer as typed in its query, when it is a valid one; else `page` as it is. */
export function withPendingOffer(page: string, typed: Partial<Record<keyof PendingOffer, string>>): string {
  const url = new URL(page, "http://local");
  for (const [key, name] of Object.entries(PENDING_PARAMS)) {
    const value = typed[key as keyof PendingOffer];
    if (value) url.searchParams.set(name, value);
    else url.searchParams.delete(name);
  }
  const withOffer = url.pathname + url.search;
  return pendingOfferOf(withOffer) ? withOffer : page;
}

/** The pending offer a URL carries, and the same URL without it; null when it carries none, or no valid offer. */
export function pendingOfferOf(page: string): { offer: PendingOffer; page: string } | null {
  const url = new URL(page, "http://local");
  const read = (name: string) => url.searchParams.get(name) ?? "";
  const offer = {
    price: read(PENDING_PARAMS.price),
    currency: read(PENDING_PARAMS.currency),
    days: read(PENDING_PARAMS.days),
    payFrom: read(PENDING_PARAMS.payFrom) || PAY_FROM.game,
  };
  for (const name of Object.values(PENDING_PARAMS)) url.searchParams.delete(name);
  const price = offer.price.length <= 40 ? parseTokenAmount(offer.price) : undefined;
  const valid =
    price !== undefined &&
    price > 0n &&
    isCurrency(offer.currency) &&
    LISTING_DURATIONS.some((duration) => String(duration.days) === offer.days) &&
    Object.values(PAY_FROM).includes(offer.payFrom as PayFrom);
  return valid ? { offer: offer as PendingOffer, page: url.pathname + url.search } : null;
}
