import type { Router } from "express";
import { handle, sendOk } from "../../http";
import type { MarketCore } from "../core";
import { parseMarketInput } from "../shared/params";
import { marketInput, publicGet } from "../request";
import { recentActivity, topNft, volumeSeries } from "./stats";
import { historySchema, statisticsSchema, volumeSchema } from "./stats-schemas";
import { listingQuerySchema } from "../shared/listing-schemas";
import { requireItem } from "../shared/items";
import { priceHistory, viewNumbers } from "./view-numbers";

/** Public market statistics: top sales, the activity feed, the daily volume series, a view's numbers and price history. */
export function statsRoutes(router: Router, { db }: MarketCore) {
  publicGet(router, "/statistics/topNft", statisticsSchema, (q, now) => topNft(db, q, now));
  publicGet(router, "/statistics/activity", statisticsSchema, (q, now) => recentActivity(db, q, now));
  publicGet(router, "/statistics/volume", volumeSchema, ({ days, nftType }, now) => volumeSeries(db, days ?? 30, nftType, now));
  publicGet(router, "/marketplace/viewNumbers", listingQuerySchema, (q, now) => viewNumbers(db, q, now));
  router.get(
    "/marketplace/priceHistory",
    handle(async (req, res) => {
      const input = marketInput(req);
      const { period, tokenId, nftType } = parseMarketInput(historySchema, input);
      const now = Date.now();
      if (tokenId !== undefined) {
        const item = await requireItem(db, nftType!, tokenId);
        sendOk(res, await priceHistory(db, { itemId: item.id }, period ?? "30d", now));
      } else {
        sendOk(res, await priceHistory(db, { query: parseMarketInput(listingQuerySchema, input) }, period ?? "30d", now));
      }
    }),
  );
}
