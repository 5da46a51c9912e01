import type { Router } from "express";
import { handle, sendOk } from "../http";
import type { MarketCore } from "./core";
import { parseMarketInput } from "./params";
import { marketInput } from "./request";
import { recentActivity, topNft, volumeSeries } from "./stats";
import { statisticsSchema, volumeSchema } from "./stats-schemas";

/** Public market statistics: top sales, the activity feed and the daily volume series. */
export function statsRoutes(router: Router, { db }: MarketCore) {
  router.get(
    "/statistics/topNft",
    handle(async (req, res) => {
      const q = parseMarketInput(statisticsSchema, marketInput(req));
      sendOk(res, await topNft(db, q, Date.now()));
    }),
  );
  router.get(
    "/statistics/activity",
    handle(async (req, res) => {
      const q = parseMarketInput(statisticsSchema, marketInput(req));
      sendOk(res, await recentActivity(db, q, Date.now()));
    }),
  );
  router.get(
    "/statistics/volume",
    handle(async (req, res) => {
      const { days, nftType } = parseMarketInput(volumeSchema, marketInput(req));
      sendOk(res, await volumeSeries(db, days ?? 30, nftType, Date.now()));
    }),
  );
}
