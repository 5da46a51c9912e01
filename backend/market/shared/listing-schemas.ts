/**
 * Input of the listing queries (product §3) and of the endpoints that name one item: its detail, metadata,
 * favorites and views.
 */
import { z } from "zod";
import { LOCATION_NAMES, type LocationName } from "~core/api/market";
import {
  EGSE_TYPES,
  ITEM_ATTRIBUTE_KEYS,
  ITEM_ATTRIBUTES,
  LEVEL_MAX,
  LEVEL_MIN,
  NFT_TYPE,
  PSE_TYPES,
  type ItemAttributeKey,
} from "~core/nft";
import { LOOTBOX_PAGE_SIZE, MAX_PAGE_SIZE } from "~core/constants";
import {
  MAX_PAGE_NUMBER,
  RESULT_WINDOW,
  addressParam,
  codeList,
  codesOf,
  currencyParam,
  intParam,
  isAbsent,
  nftTypeParam,
  optional,
  param,
  required,
  tokenIdParam,
  weiParam,
} from "./params";

/** Spaceship stats are small game numbers; the cap only keeps SQLite integers sane. */
const STAT_MAX = 1_000_000;

/** Stats of spaceships that the market filters by range. */
export const STAT_RANGES = ["endurance", "agility", "pisonic", "strength", "crit", "spirit", "armor", "total"] as const;
export type StatRange = (typeof STAT_RANGES)[number];
export const RANGE_KEYS = ["level", "price", ...STAT_RANGES] as const;

const statParam = intParam(0, STAT_MAX);
const rangeSchema = z
  .object({
    level: optional(intParam(LEVEL_MIN, LEVEL_MAX)),
    price: optional(weiParam),
    ...(Object.fromEntries(STAT_RANGES.map((stat) => [stat, optional(statParam)])) as Record<
      StatRange,
      ReturnType<typeof optional<typeof statParam>>
    >),
  })
  .strict(`expected only the keys ${RANGE_KEYS.join(", ")}`);

export interface Ranges {
  level?: number;
  price?: bigint;
  endurance?: number;
  agility?: number;
  pisonic?: number;
  strength?: number;
  crit?: number;
  spirit?: number;
  armor?: number;
  total?: number;
}

const rangeParam = z.unknown().transform((value, ctx): Ranges => {
  if (isAbsent(value)) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "expected nested keys such as min[level]=1" });
    return z.NEVER;
  }
  const result = rangeSchema.safeParse(value);
  if (result.success) return Object.fromEntries(Object.entries(result.data).filter(([, v]) => v !== undefined));
  for (const issue of result.error.issues) ctx.addIssue(issue);
  return z.NEVER;
});

export const SORT_KEYS = ["price", "listed", "views", "favorites", "total"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = "asc" | "desc";

type FilterOf<K extends ItemAttributeKey> = K extends "pseType" | "egseType" ? "type" : K;
export type ListFilter = FilterOf<ItemAttributeKey>;

/** The query parameter that filters an attribute: its own name, but PSE and EGSE types share `type`. */
export function filterOf(key: ItemAttributeKey): ListFilter {
  return key === "pseType" || key === "egseType" ? "type" : key;
}

/**
 * Multi-value enumeration filters: query parameter → the attribute's codes. `type` takes the PSE codes here and is
 * checked against the enumeration of the query's nftType below.
 */
export const LIST_FILTERS = Object.fromEntries(
  ITEM_ATTRIBUTE_KEYS.filter((key) => key !== "egseType").map((key) => [filterOf(key), codesOf(ITEM_ATTRIBUTES[key].names)]),
) as Record<ListFilter, number[]>;

const listFilterShape = Object.fromEntries(
  Object.entries(LIST_FILTERS).map(([name, codes]) => [name, optional(codeList(codes))]),
) as Record<ListFilter, ReturnType<typeof optional<ReturnType<typeof codeList>>>>;

/** The listing query of product §3 (myStorage, selling, myFavorite, tradingMarket, getGameNft). */
export const listingQuerySchema = z
  .object({
    pageNumber: optional(intParam(1, MAX_PAGE_NUMBER)),
    pageSize: optional(param((value) => (/^\d{1,5}$/.test(value) ? Number(value) : undefined), "a whole number")),
    address: optional(addressParam),
    nftType: optional(nftTypeParam),
    ...listFilterShape,
    min: rangeParam,
    max: rangeParam,
    currency: optional(currencyParam),
    /** Where an owned item is (myStorage): a public player page lists a wallet's chain-held items only. */
    location: optional(
      param(
        (value) => ((LOCATION_NAMES as readonly string[]).includes(value) ? (value as LocationName) : undefined),
        LOCATION_NAMES.join(", "),
      ),
    ),
    /** Where the listing is filled (docs/api/market.md "Chain listings"): only listed items then. */
    venue: optional(param((value) => (value === "game" || value === "chain" ? value : undefined), "game or chain")),
    sort: optional(
      param(
        (value) => ((SORT_KEYS as readonly string[]).includes(value) ? (value as SortKey) : undefined),
        `one of ${SORT_KEYS.join(", ")}`,
      ),
    ),
    order: optional(param((value) => (value === "asc" || value === "desc" ? value : undefined), "asc or desc")),
  })
  .superRefine((query, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
    const pageSize = query.pageSize ?? 10;
    const lootboxPage = pageSize === LOOTBOX_PAGE_SIZE && query.nftType === NFT_TYPE.lootbox;
    if (!lootboxPage && (pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
      issue(["pageSize"], `expected a whole number from 1 to ${MAX_PAGE_SIZE} (${LOOTBOX_PAGE_SIZE} only with nftType=6)`);
    }
    if ((query.pageNumber ?? 1) * pageSize > RESULT_WINDOW && !lootboxPage) {
      issue(["pageNumber"], `expected pageNumber × pageSize ≤ ${RESULT_WINDOW}; narrow the filters to see further`);
    }
    if (lootboxPage && (query.pageNumber ?? 1) !== 1) issue(["pageNumber"], `expected 1 with pageSize ${LOOTBOX_PAGE_SIZE}`);
    if (query.type) {
      const map: Record<number, string> | undefined =
        query.nftType === NFT_TYPE.pse ? PSE_TYPES : query.nftType === NFT_TYPE.egse ? EGSE_TYPES : undefined;
      if (!map) issue(["type"], "expected nftType 2 (pse) or 3 (egse) alongside type");
      else if (query.type.some((code) => !(code in map))) {
        issue(["type"], `expected a comma-separated list of ${codesOf(map).join(", ")}`);
      }
    }
    for (const key of RANGE_KEYS) {
      const low = query.min[key];
      const high = query.max[key];
      if (low !== undefined && high !== undefined && low > high) issue(["min", key], `expected at most max[${key}]`);
    }
  })
  .transform((query) => ({
    ...query,
    pageNumber: query.pageNumber ?? 1,
    pageSize: query.pageSize ?? 10,
    sort: query.sort ?? ("listed" as SortKey),
    // Cheapest first for price, newest / most first for the rest.
    order: query.order ?? ((query.sort === "price" ? "asc" : "desc") as SortOrder),
  }));
export type ListingQuery = z.output<typeof listingQuerySchema>;

/**
 * Express's extended query parser nests `min[level]=1` into `{ min: { level: "1" } }`; the simple parser
 * leaves the key flat. Accept both, so the contract holds whatever parser the host app configures.
 */
export function normalizeQuery(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const match = /^(min|max)\[([^\]]*)\]$/.exec(key);
    if (!match) {
      out[key] = value;
      continue;
    }
    const [, side, name] = match;
    const nested = out[side];
    out[side] = { ...(typeof nested === "object" && nested !== null ? nested : {}), [name]: value };
  }
  return out;
}

/** A token named by type and id; `address` (optional) is the visitor's wallet. */
export const tokenRefSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  address: optional(addressParam),
});

export const favoriteSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  address: required(addressParam, "your wallet address"),
});

export const viewSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  ownerAddress: optional(addressParam),
});
