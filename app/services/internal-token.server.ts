import { randomBytes } from "node:crypto";
import { getEnv } from "./env.server";

// server.ts and the Remix build each load their own copy of this module: one token for both, keyed globally.
const KEY = Symbol.for("spark-era.internal-token");
const holder = globalThis as typeof globalThis & { [KEY]?: string };

/**
 * The internal token: the app puts it on its own calls to the backends; only a request carrying it skips the rate
 * limits and may name the browser it speaks for. INTERNAL_TOKEN when set (every process of the site shares it),
 * else a random token made once per process, which never leaves it.
 */
export function internalToken(configured: string | undefined = getEnv().INTERNAL_TOKEN): string {
  return configured ?? (holder[KEY] ??= randomBytes(32).toString("hex"));
}

/**
 * The token a call to a backend carries: the embedded one (`externalUrl` unset) gets `internalToken()`; an external
 * one (SSO_API_URL, MARKET_API_URL) only a configured INTERNAL_TOKEN, meant for our own backends on another host, so
 * that they count sign-in budgets per browser rather than per app host. Never the random per-process token.
 */
export function internalTokenFor(
  externalUrl: string | undefined,
  configured: string | undefined = getEnv().INTERNAL_TOKEN,
): string | undefined {
  return externalUrl ? configured : internalToken(configured);
}
