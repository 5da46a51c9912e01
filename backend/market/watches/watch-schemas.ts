/** Input of the watch endpoints (docs/api/market.md "Watched searches"). */
import { z } from "zod";
import { currencyParam, intParam, optional, positiveWeiParam, required } from "../shared/params";

/** Longest canonical market query a watch keeps (the app's kept-URL limit). */
export const MAX_SEARCH_LENGTH = 1024;
/** Longest label a watch keeps. */
export const MAX_LABEL_LENGTH = 500;

export const addWatchSchema = z.object({
  /** The market view's canonical query string, without "?": the watch's link. */
  search: z
    .string({ message: "expected the market view's query string" })
    .max(MAX_SEARCH_LENGTH, `expected at most ${MAX_SEARCH_LENGTH} characters`)
    .refine((text) => !text.startsWith("?") && !/[\s#]/.test(text), "expected a query string without ?, # or spaces"),
  /** The view in words, as the app labels a search: the digest mail names the watch with it. */
  label: z
    .string({ message: "expected the market view's label" })
    .trim()
    .min(1, "expected the market view's label")
    .max(MAX_LABEL_LENGTH, `expected at most ${MAX_LABEL_LENGTH} characters`),
  /** The view's listing query, as tradingMarket takes it; paging and sort are ignored. */
  query: z.record(z.unknown(), { message: "expected the view's listing query as an object" }),
  currency: optional(currencyParam),
  /** Wei: only listings at or under it alert. */
  ceiling: optional(positiveWeiParam),
});

export const watchIdSchema = z.object({ id: required(intParam(1, Number.MAX_SAFE_INTEGER), "a watch id") });
