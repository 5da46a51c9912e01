/**
 * The shapes of single configuration values that the environment's schema (env.server.ts) reads: hex keys, URLs and
 * links, which hosts are this machine's, the proxies to trust, where analytics events go, and the gas tank's budgets.
 */
import { isIP } from "node:net";
import { z } from "zod";
import type { AnalyticsSink } from "~core/analytics";
import { parseTokenAmount } from "~core/money";

export const hexKey = (bytes: number) => z.string().regex(new RegExp(`^(0x)?[0-9a-fA-F]{${bytes * 2}}$`), `must be ${bytes} bytes of hex`);
export const optionalUrl = z.string().url().optional();
export const link = (fallback: string) => z.string().url().default(fallback);

/** Hosts that only this machine reaches. Any other PUBLIC_URL host is a public deployment. */
export const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLocalUrl(url: string): boolean {
  return LOCAL_HOSTS.has(new URL(url).hostname);
}

/**
 * Express's `trust proxy`: false (the peer is the client), true (the leftmost X-Forwarded-For entry is), a hop count,
 * or the proxies' addresses, subnets and range names.
 */
export type TrustProxy = boolean | number | string[];

/** Express's names for address ranges, each usable as an entry of TRUST_PROXY's list. */
const PROXY_RANGE_NAMES = ["loopback", "linklocal", "uniquelocal"];

/** One entry of a proxy list: an address, a subnet (address/prefix length) or one of Express's range names. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/**
 * Parsed, never handed to Express as a string: Express reads any string as a list of addresses, so "1" would trust
 * the address 0.0.0.1 and no proxy at all.
 */
export const trustProxy = z
  .string()
  .optional()
  .transform((text, ctx): TrustProxy => {
    const value = text?.trim() ?? "";
    if (value === "" || value === "false") return false;
    if (value === "true") return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(",").map((entry) => entry.trim());
    const refused = entries.filter((entry) => !isProxyEntry(entry));
    if (refused.length === 0) return entries;
    ctx.addIssue({
      code: "custom",
      message:
        `must be a hop count (1, 2, …), true, false, or a comma-separated list of addresses, subnets (10.0.0.0/8) and ` +
        `${PROXY_RANGE_NAMES.join(", ")} (got ${refused.map((entry) => JSON.stringify(entry)).join(", ")})`,
    });
    return z.NEVER;
  });

/** Where analytics events go (core/analytics.ts): one JSON line on stdout, nowhere, or POSTed to a URL. */
export const analyticsSink = z
  .string()
  .optional()
  .transform((text, ctx): AnalyticsSink => {
    const value = text?.trim() ?? "";
    if (value === "" || value === "log") return { kind: "log" };
    if (value === "off") return { kind: "off" };
    if (/^https?:\/\//i.test(value) && URL.canParse(value)) return { kind: "http", url: new URL(value).toString() };
    ctx.addIssue({ code: "custom", message: `must be log, off or an http(s) URL (got ${JSON.stringify(value)})` });
    return z.NEVER;
  });

/** The gas tank's budgets an operator may set (backend/sso/executor/gas-tank.ts GasTankPolicy); the rest keep defaults. */
export interface GasTankBudgets {
  accountDayWei?: bigint;
  siteDayWei?: bigint;
  lowBalanceWei?: bigint;
  actionDayCount?: number;
}

const BNB_BUDGETS = { account: "accountDayWei", site: "siteDayWei", low: "lowBalanceWei" } as const;

/**
 * GAS_TANK_BUDGETS, "account=0.02,site=5,actions=20,low=1": BNB a day for one account and for the whole site,
 * sponsored actions of one kind per account a day, and the balance below which the tank is reported low.
 */
export const gasTankBudgets = z
  .string()
  .optional()
  .transform((text, ctx): GasTankBudgets | undefined => {
    if (!text?.trim()) return undefined;
    const budgets: GasTankBudgets = {};
    for (const pair of text.split(",")) {
      const [name = "", value = "", ...rest] = pair.split("=").map((part) => part.trim());
      const wei = name in BNB_BUDGETS && rest.length === 0 ? parseTokenAmount(value) : undefined;
      if (wei !== undefined) budgets[BNB_BUDGETS[name as keyof typeof BNB_BUDGETS]] = wei;
      else if (name === "actions" && rest.length === 0 && /^\d+$/.test(value)) budgets.actionDayCount = Number(value);
      else {
        ctx.addIssue({
          code: "custom",
          message: `must read like "account=0.02,site=5,actions=20,low=1": BNB for account, site and low, a count for actions (got ${JSON.stringify(pair.trim())})`,
        });
        return z.NEVER;
      }
    }
    return budgets;
  });
