/** Input of the statistics endpoints: top NFTs, recent activity and the volume series. */
import { z } from "zod";
import { CAMPS, EGSE_TYPES, LEVEL_MAX, LEVEL_MIN, NFT_TYPE, PSE_TYPES, RARITIES, SPACESHIP_TYPES } from "~core/nft";
import { MAX_PAGE_SIZE } from "~core/constants";
import { HISTORY_PERIODS, type HistoryPeriod } from "~core/api/market";
import {
  MAX_PAGE_NUMBER,
  RESULT_WINDOW,
  codeList,
  codesOf,
  currencyParam,
  intParam,
  nftTypeParam,
  optional,
  param,
  tokenIdParam,
} from "../shared/params";

export const PERIODS = { "1d": 1, "7d": 7, "30d": 30, "90d": 90, all: 0 } as const;
export type Period = keyof typeof PERIODS;

export const statisticsSchema = z
  .object({
    pageNumber: optional(intParam(1, MAX_PAGE_NUMBER)),
    pageSize: optional(intParam(1, MAX_PAGE_SIZE)),
    nftType: optional(nftTypeParam),
    camp: optional(codeList(codesOf(CAMPS))),
    rarity: optional(codeList(codesOf(RARITIES))),
    type: optional(codeList(codesOf(PSE_TYPES))),
    rank: optional(codeList(codesOf(SPACESHIP_TYPES))),
    level: optional(codeList([...Array(LEVEL_MAX).keys()].map((i) => i + LEVEL_MIN))),
    currency: optional(currencyParam),
    period: optional(param((value) => (value in PERIODS ? (value as Period) : undefined), `one of ${Object.keys(PERIODS).join(", ")}`)),
  })
  .superRefine((query, ctx) => {
    if (query.type && query.nftType !== NFT_TYPE.pse && query.nftType !== NFT_TYPE.egse) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["type"], message: "expected nftType 2 (pse) or 3 (egse) alongside type" });
    } else if (query.type && query.nftType === NFT_TYPE.egse && query.type.some((code) => !(code in EGSE_TYPES))) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["type"], message: "expected a comma-separated list of 1, 2, 3" });
    }
    if ((query.pageNumber ?? 1) * (query.pageSize ?? 10) > RESULT_WINDOW) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["pageNumber"], message: `expected pageNumber × pageSize ≤ ${RESULT_WINDOW}` });
    }
  })
  .transform((query) => ({ ...query, pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? 10 }));
export type StatisticsQuery = z.output<typeof statisticsSchema>;

export const volumeSchema = z.object({
  days: optional(intParam(1, 365)),
  nftType: optional(nftTypeParam),
});

/** GET /marketplace/priceHistory: the period, and an item (tokenId with nftType) or else a view (the listing query's filter). */
export const historySchema = z
  .object({
    period: optional(
      param(
        (value) => ((HISTORY_PERIODS as readonly string[]).includes(value) ? (value as HistoryPeriod) : undefined),
        HISTORY_PERIODS.join(", "),
      ),
    ),
    tokenId: optional(tokenIdParam),
    nftType: optional(nftTypeParam),
  })
  .superRefine((query, ctx) => {
    if (query.tokenId !== undefined && query.nftType === undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["nftType"], message: "required with tokenId: an NFT type code" });
    }
  });
