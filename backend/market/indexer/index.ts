/**
 * The chain indexer (docs/api/market.md "Chain indexer"): follows the collections' transfers and the bridge's,
 * materials', SparkItems', trading's, rewards' and mutations' streams into the market, with reorg handling. What
 * the reconciler, the listing routes and service.ts use goes through this file.
 */
export { type ChainIndexer, TRANSFERS_STREAM, createChainIndexer } from "./indexer";
export { itemPending } from "./pending";
export { type ChainTruth, reconcileItem } from "./apply";
export { chainReader } from "./reader";
export { PAYING_STREAMS, SHOWING_STREAMS } from "./streams";
export { cancelListing } from "./trading";
