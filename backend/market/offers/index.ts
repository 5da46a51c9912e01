/**
 * Offers (docs/api/market.md "Offers", "Chain offers"): a buyer's signed offers on the game ledger, and the chain's
 * Trading offers kept beside them. What other market features use goes through this file; its routes
 * (offer-routes.ts) are mounted by service.ts only.
 */
export { OFFER_STATUS } from "./offer-terms";
export {
  type OfferEffect,
  chainOfferByHash,
  chainOfferOf,
  chainOffersBelowCounter,
  closeChainOffers,
  requireChainOfferable,
  storeChainOffer,
  undoOfferEffect,
} from "./chain-offers";
