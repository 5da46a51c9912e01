/**
 * Input contract of the market API: every query string and body goes through one of these Zod schemas.
 * Values arrive as query-string text (or JSON numbers), so each parameter parses text itself and, on failure,
 * answers 400 with `<parameter>: expected …`, the parameter written as in the URL (`min[level]`).
 */
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { ApiError } from "../http";
import {
  BOX_TYPES,
  CAMPS,
  EGG_TYPES,
  EGSE_TYPES,
  EQUIPMENT_CODES,
  EQUIPMENT_TYPES,
  IDENTITIES,
  LEVEL_MAX,
  LEVEL_MIN,
  MATERIALS,
  NFT_TYPE,
  NFT_TYPES,
  PROFESSIONS,
  PSE_TYPES,
  RARITIES,
  SPACESHIP_TYPES,
  type NftTypeCode,
} from "~core/nft";
import { LOOTBOX_PAGE_SIZE, MAX_PAGE_SIZE } from "~core/constants";
import { CURRENCIES, type Currency, isCurrency, parseUint256 } from "~core/money";

export type Address = `0x${string}`;

/** No list goes deeper than this many records (like a search engine's result window); also the cap of `total`. */
export const RESULT_WINDOW = 10_000;
const MAX_PAGE_NUMBER = RESULT_WINDOW;
/** Spaceship stats are small game numbers; the cap only keeps SQLite integers sane. */
const STAT_MAX = 1_000_000;

/** Query values as text: a JSON number becomes its decimal text, "" counts as absent. */
function text(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string") return value.trim() === "" ? undefined : value.trim();
  return undefined;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/** A parameter parsed from text; `expected` completes the message "expected …". */
function param<T>(parse: (value: string) => T | undefined, expected: string) {
  return z.unknown().transform((value, ctx): T => {
    const raw = text(value);
    const parsed = raw === undefined ? undefined : parse(raw);
    if (parsed === undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected ${expected}` });
      return z.NEVER;
    }
    return parsed;
  });
}

function optional<T extends z.ZodTypeAny>(schema: T) {
  return z.unknown().transform((value, ctx): z.output<T> | undefined => {
    if (isAbsent(value)) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: issue.path });
    return z.NEVER;
  });
}

function required<T extends z.ZodTypeAny>(schema: T, expected: string) {
  return z.unknown().transform((value, ctx): z.output<T> => {
    if (isAbsent(value)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `required: ${expected}` });
      return z.NEVER;
    }
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: issue.path });
    return z.NEVER;
  });
}

export function intParam(min: number, max: number) {
  return param((value) => {
    if (!/^\d{1,15}$/.test(value)) return undefined;
    const n = Number(value);
    return n >= min && n <= max ? n : undefined;
  }, `a whole number from ${min} to ${max}`);
}

export const nftTypeParam = param((value) => {
  if (!/^\d$/.test(value)) return undefined;
  const n = Number(value);
  return n in NFT_TYPES ? (n as NftTypeCode) : undefined;
}, "an NFT type code from 0 to 8");

export const addressParam = param(
  (value) => (isAddress(value, { strict: true }) ? (getAddress(value) as Address) : undefined),
  "a wallet address (0x followed by 40 hex digits, EIP-55 checksum when mixed case)",
);

export const tokenIdParam = param((value) => parseUint256(value)?.toString(), "a token id (unsigned integer)");

export const weiParam = param((value) => parseUint256(value), "an amount in wei (unsigned integer)");

export const positiveWeiParam = param((value) => {
  const wei = parseUint256(value);
  return wei !== undefined && wei > 0n ? wei : undefined;
}, "a positive amount in wei (unsigned integer)");

export const currencyParam = param(
  (value) => (isCurrency(value.toUpperCase()) ? (value.toUpperCase() as Currency) : undefined),
  `one of ${CURRENCIES.join(", ")}`,
);

export const signatureParam = param(
  (value) => (/^0x[0-9a-fA-F]{2,1024}$/.test(value) ? (value as `0x${string}`) : undefined),
  "a 0x-prefixed hex signature",
);

/** A comma-separated list of codes of one enumeration (repeated keys are accepted too). */
function codeList(codes: readonly number[]) {
  const allowed = new Set(codes);
  return z.unknown().transform((value, ctx): number[] => {
    const raw = Array.isArray(value) && value.every((v) => typeof v === "string") ? value.join(",") : text(value);
    const parts = raw?.split(",").map((part) => part.trim());
    const list = parts?.every((part) => /^\d{1,3}$/.test(part) && allowed.has(Number(part)))
      ? [...new Set(parts.map(Number))].sort((a, b) => a - b)
      : undefined;
    if (!list) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a comma-separated list of ${codes.join(", ")}` });
      return z.NEVER;
    }
    return list;
  });
}

const codesOf = (map: Record<number, string>) => Object.keys(map).map(Number);

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

/** Multi-value enumeration filters: query parameter → the enumeration's codes. */
export const LIST_FILTERS = {
  camp: codesOf(CAMPS),
  rarity: codesOf(RARITIES),
  identity: codesOf(IDENTITIES),
  profession: codesOf(PROFESSIONS),
  material: codesOf(MATERIALS),
  rank: codesOf(SPACESHIP_TYPES),
  /** PSE or EGSE type depending on nftType; checked against the right enumeration below. */
  type: codesOf(PSE_TYPES),
  eggType: codesOf(EGG_TYPES),
  equipmentType: codesOf(EQUIPMENT_TYPES),
  equipmentCode: codesOf(EQUIPMENT_CODES),
  boxType: codesOf(BOX_TYPES),
} as const;
export type ListFilter = keyof typeof LIST_FILTERS;

const listFilterShape = Object.fromEntries(
  Object.entries(LIST_FILTERS).map(([name, codes]) => [name, optional(codeList(codes))]),
) as Record<ListFilter, ReturnType<typeof optional<ReturnType<typeof codeList>>>>;

/** The listing query of SPEC §3 (myStorage, selling, myFavorite, tradingMarket, getGameNft). */
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
    sort: optional(
      param((value) => (SORT_KEYS as readonly string[]).includes(value) ? (value as SortKey) : undefined, `one of ${SORT_KEYS.join(", ")}`),
    ),
    order: optional(param((value) => (value === "asc" || value === "desc" ? value : undefined), "asc or desc")),
  })
  .superRefine((query, ctx) => {
    const issue = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
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

/** Unix seconds; orders may carry an expiry that the signature covers. */
const expiryParam = intParam(0, 2 ** 40);
const nonceParam = param((value) => parseUint256(value)?.toString(), "a nonce (unsigned integer)");

/** What a browser wallet adds to every order: its signature, the nonce and expiry it signed, and its chain. */
const orderProof = {
  signature: optional(signatureParam),
  nonce: optional(nonceParam),
  expiry: optional(expiryParam),
  chainId: optional(intParam(1, 2 ** 31)),
};

export const sellSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  ownerAddress: required(addressParam, "the owner's wallet address"),
  address: required(addressParam, "your wallet address"),
  price: required(positiveWeiParam, "the price in wei"),
  currency: optional(currencyParam),
  ...orderProof,
});

export const cancelSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  address: required(addressParam, "your wallet address"),
  ...orderProof,
});

/** Listing ids are SQLite rowids: positive and within a JS safe integer. */
const listingIdParam = param((value) => (/^[1-9]\d{0,14}$/.test(value) ? Number(value) : undefined), "a listing id (positive whole number)");

export const buySchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  /** The listing the buyer saw (tokenDetailByTokenId's listing.id): a buy never fills another one. */
  listingId: required(listingIdParam, "the id of the listing you are buying"),
  address: required(addressParam, "your wallet address"),
  price: required(positiveWeiParam, "the price in wei"),
  ...orderProof,
});

export const transferSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  address: required(addressParam, "your wallet address"),
  to: required(addressParam, "the recipient's wallet address"),
  ...orderProof,
});

export const cancelAllSchema = z.object({
  address: required(addressParam, "your wallet address"),
  counter: required(nonceParam, "the order counter you signed"),
  ...orderProof,
});

export const orderContextSchema = z.object({ address: optional(addressParam) });

/** Only game 1 exists; the tag is kept so that a second game can be added without a contract change. */
const gameTagParam = param((value) => (value === "1" ? 1 : undefined), "gameTag 1");

export const gameTagSchema = z.object({ gameTag: optional(gameTagParam) });

export const takeOutTokenSchema = z.object({
  fire: required(positiveWeiParam, "the FIRE amount in wei"),
  gameTag: optional(gameTagParam),
});

export const takeOutNftSchema = z.object({
  takeOut: required(tokenIdParam, "the token id to take out"),
  nftType: required(nftTypeParam, "an NFT type code"),
  gameTag: optional(gameTagParam),
});

export const claimStatusSchema = z.object({
  txId: required(
    param((value) => (/^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : undefined), "a claim txId"),
    "a claim txId",
  ),
});

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
    period: optional(
      param((value) => (value in PERIODS ? (value as Period) : undefined), `one of ${Object.keys(PERIODS).join(", ")}`),
    ),
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

export const rebateSchema = z.object({
  emailAddr: required(z.string().trim().toLowerCase().email("expected an email address"), "your account's email"),
  erc20Addr: required(z.string().trim().max(64), "a currency symbol or token address"),
});

export const claimRebateSchema = z.object({
  erc20Addr: required(z.string().trim().max(64), "a currency symbol or token address"),
});

/** An invite code, or the inviter's wallet (SSO registration's RefferAddr may hold either). */
export const acceptInviteSchema = z.object({
  code: required(
    param((value) => {
      if (isAddress(value, { strict: true })) return getAddress(value) as Address;
      return /^[A-Z0-9]{6,16}$/i.test(value) ? value.toUpperCase() : undefined;
    }, "an invite code or the inviter's wallet address"),
    "an invite code",
  ),
});

/** Parses input with a schema; a failure is a 400 naming the parameter as written in the URL (`min[level]`). */
export function parseMarketInput<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const [head, ...rest] = issue.path;
  const name = head === undefined ? "" : `${head}${rest.map((part) => `[${part}]`).join("")}: `;
  throw new ApiError(400, `${name}${issue.message}`);
}
