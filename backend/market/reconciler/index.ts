/** The chain reconciler (decision 0027): checks the indexer's work against the chain, and repairs it. */
export { type ChainReconciler, createChainReconciler } from "./reconciler";
export { type DriftKind } from "./check";
