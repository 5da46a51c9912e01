/**
 * The parameter parsers every market schema is built from. Values arrive as query-string text (or JSON numbers),
 * so each parameter parses text itself and, on failure, answers 400 with `<parameter>: expected …`, the
 * parameter written as in the URL (`min[level]`).
 */
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { ApiError } from "../../http";
import { NFT_TYPES, type NftTypeCode } from "~core/nft";
import { CURRENCIES, type Currency, isCurrency, parseUint256 } from "~core/money";

export type Address = `0x${string}`;

/** No list goes deeper than this many records (like a search engine's result window); also the cap of `total`. */
export const RESULT_WINDOW = 10_000;
export const MAX_PAGE_NUMBER = RESULT_WINDOW;

/** Query values as text: a JSON number becomes its decimal text, "" counts as absent. */
function text(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string") return value.trim() === "" ? undefined : value.trim();
  return undefined;
}

export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/** A parameter parsed from text; `expected` completes the message "expected …". */
export function param<T>(parse: (value: string) => T | undefined, expected: string) {
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

export function optional<T extends z.ZodTypeAny>(schema: T) {
  return z.unknown().transform((value, ctx): z.output<T> | undefined => {
    if (isAbsent(value)) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: issue.path });
    return z.NEVER;
  });
}

export function required<T extends z.ZodTypeAny>(schema: T, expected: string) {
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

/** Whole units of a stack (a uint256: balances can pass 2^53), above zero. */
export const positiveUnitsParam = param((value) => {
  const units = parseUint256(value);
  return units !== undefined && units > 0n ? units : undefined;
}, "a whole number above zero (unsigned integer)");

export const currencyParam = param(
  (value) => (isCurrency(value.toUpperCase()) ? (value.toUpperCase() as Currency) : undefined),
  `one of ${CURRENCIES.join(", ")}`,
);

export const signatureParam = param(
  (value) => (/^0x[0-9a-fA-F]{2,1024}$/.test(value) ? (value as `0x${string}`) : undefined),
  "a 0x-prefixed hex signature",
);

/** A comma-separated list of codes of one enumeration (repeated keys are accepted too). */
export function codeList(codes: readonly number[]) {
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

export const codesOf = (map: Record<number, string>) => Object.keys(map).map(Number);

/** Parses input with a schema; a failure is a 400 naming the parameter as written in the URL (`min[level]`). */
export function parseMarketInput<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const [head, ...rest] = issue.path;
  const name = head === undefined ? "" : `${head}${rest.map((part) => `[${part}]`).join("")}: `;
  throw new ApiError(400, `${name}${issue.message}`);
}
