/**
 * The trading contract's refusals (contracts/src/Trading.sol) in the product's words, by custom error name: the
 * pages quote these. No viem here (core/trading.ts, which re-exports them, has the typed data and hashing).
 */
import { INSUFFICIENT_BALANCE } from "./chain-text";

/** Trading's refusals in the product's words, by custom error name; the pages quote these. */
export const TRADING_ERROR_MESSAGES = {
  ListingExpired: "This listing has expired.",
  ListingFilled: "This listing has already been bought.",
  ListingCancelled: "The seller has cancelled this listing.",
  CounterMismatch: "The seller has cancelled all their listings.",
  InvalidSignature: "This listing's terms have changed: it cannot be bought as shown.",
  CurrencyNotAllowed: "This listing asks for a currency the market does not take.",
  WrongPayment: "The payment does not match the listing's price.",
  SellerNoLongerHolds: "The seller no longer holds this item.",
  SellerNotApproved: "The seller no longer lets the market move this item, so it cannot be bought.",
  NotSeller: "Only the seller can cancel this listing.",
  SelfPurchase: "You cannot buy your own listing.",
  InvalidStandard: "This listing names an unknown kind of item.",
  InvalidAmount: "This listing's amount is not valid for its item.",
  LengthMismatch: "Each item to transfer needs one amount.",
  NothingToTransfer: "Choose at least one item to transfer.",
  InsufficientBalance: INSUFFICIENT_BALANCE,
  InsufficientAllowance: "The market may not yet spend enough of this currency for you: approve the price, then buy again.",
  NativePaymentFailed: "The payment could not be delivered to the seller. Nothing was bought.",
  FeeTooHigh: "The market fee cannot be more than 10%.",
  InvalidFeeRecipient: "The market fee needs a recipient.",
  OfferExpired: "This offer has expired.",
  OfferFilled: "This offer has already been accepted.",
  OfferWithdrawn: "The buyer has withdrawn this offer.",
  NotBuyer: "Only the buyer can withdraw this offer.",
  ItemNotOffered: "This item is not one the offer was made for.",
  OfferUnpayable: "The buyer can no longer pay this offer, so it cannot be accepted.",
} as const satisfies Record<string, string>;

export type TradingErrorName = keyof typeof TRADING_ERROR_MESSAGES;

/** Where acceptOffer shares a refusal with quickSale, the words an offer's holder reads instead. */
const OFFER_WORDING: Partial<Record<TradingErrorName, string>> = {
  CounterMismatch: "The buyer has withdrawn all their offers.",
  InvalidSignature: "This offer's terms have changed: it cannot be accepted as shown.",
  CurrencyNotAllowed: "This offer is in a currency the market does not take for offers.",
  SelfPurchase: "You cannot accept your own offer.",
  SellerNoLongerHolds: "You no longer hold this item.",
  SellerNotApproved: "Let the market move this item (approve it) before accepting the offer.",
};

/** The product's sentence for a refusal of acceptOffer or cancelOffers, or null when it is none of Trading's. */
export function offerErrorMessage(name: string): string | null {
  return Object.hasOwn(OFFER_WORDING, name) ? OFFER_WORDING[name as TradingErrorName]! : tradingErrorMessage(name);
}

/** The product's sentence for a Trading refusal, or null when the name is not one of Trading's own errors. */
export function tradingErrorMessage(name: string): string | null {
  return Object.hasOwn(TRADING_ERROR_MESSAGES, name) ? TRADING_ERROR_MESSAGES[name as TradingErrorName] : null;
}
