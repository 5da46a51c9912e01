/**
 * What the chain offer forms and their island say and choose from (decision 0024), apart from chain-offer-rules.ts:
 * that module imports core/trading and with it viem, which a page's offer form must not load before a wallet acts.
 */

export const CHAIN_OFFER_CURRENCIES = ["FIRE", "QUARK", "USDT"] as const;
export const CHAIN_OFFER_BNB = "Offers on chain are paid in FIRE, QUARK or USDT: BNB cannot be offered there.";
export const chainOfferNoFunds = (currency: string) => `You do not have enough ${currency} in your wallet for this offer.`;

/** Where a collection offer's price comes from: the game balance (a ledger offer) or the wallet on chain. */
export const PAY_FROM = { game: "game", chain: "chain" } as const;
export type PayFrom = (typeof PAY_FROM)[keyof typeof PAY_FROM];
