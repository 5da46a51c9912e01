/**
 * Market statistics (docs/api/market.md "Statistics"): top sales, the activity feed, daily volume, a view's numbers
 * and price history. Its routes (stats-routes.ts) are mounted by service.ts only.
 */
export { recentActivity, topNft, volumeSeries } from "./stats";
export { computeHistory, computeViewNumbers, priceHistory, viewNumbers } from "./view-numbers";
