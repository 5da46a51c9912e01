/**
 * Trades (docs/api/market.md "Signed orders"): the listing state machine (sell, cancel, buy, transfer) on the game
 * ledger, the signed orders that drive it, and the market pages' generation. What other market features use goes
 * through this file; its routes (order-routes.ts) are mounted by service.ts only.
 */
export { type SignedFields, closeListing, requireCallerWallet, settleSale, sweepExpiredListings } from "./trades";
export { authorize, bumpOrderCounter, lockOrderCounter, orderCounter, spendNonce } from "./orders";
export { listingIdParam, nonceParam, orderProof } from "./order-schemas";
