/**
 * Listings (docs/api/market.md "Listings", "Chain listings"): the listing query and the records it answers with, and
 * the chain's signed Trading listings kept beside the ledger's. What other market features use goes through this
 * file; the feature's routes (listing-routes.ts, social-routes.ts) are mounted by service.ts only.
 */
export { CHAIN_LISTING_MSG, chainClientOf, chainOrderOf, chainSell, itemOfToken, requireChainSellable } from "./chain-listings";
export { type ChainOfferInput, chainOfferSchema, chainSellSchema } from "./chain-listing-schemas";
export {
  buildListingSql,
  hasExpiredListings,
  itemWithListing,
  itemsMatching,
  queryListings,
  viewFacets,
  viewFilterSql,
  viewQuery,
} from "./query";
export { isoTime, toRecord } from "./records";
