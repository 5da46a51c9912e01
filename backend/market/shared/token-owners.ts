/**
 * Whose an auth token is, asked the way any market API must: of the SSO over HTTP (GET /sso/getUserInfo), as
 * docs/api/market.md "Sessions" says. Answers are kept TOKEN_CACHE_MS per token, so a page's burst of market calls
 * asks once; a logout or a password reset therefore reaches the market within that time.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { BIND_ADDR_TYPE, type BindAddrType, type UserInfo } from "~core/api/sso";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import { INTERNAL_TOKEN_HEADER } from "~core/internal-call";
import type { Envelope } from "~core/api/envelope";
import { ApiError } from "../../http";

/** How long the market believes an answer of the SSO about a token (a live owner or a dead token). */
export const TOKEN_CACHE_MS = 5_000;
/** Tokens remembered at once; past it the oldest answer goes first. */
const TOKEN_CACHE_MAX = 10_000;
const LOOKUP_TIMEOUT_MS = 5_000;
export const SSO_UNREACHABLE = "The sign-in service could not be reached, please try again in a moment.";

/** The owner of a live token, as the market uses it. */
export interface TokenOwner {
  userName: string;
  email: string;
  /** Checksummed, or null when no wallet is bound. */
  walletAddress: `0x${string}` | null;
  bindAddrType: BindAddrType;
}

export interface SsoApiOptions {
  /** The SSO's base URL (the app's own server over loopback when embedded). */
  baseUrl: string;
  /** Sent as x-spark-internal to our own embedded SSO only, so its loopback calls are not rate limited as a client's. */
  internalToken?: string;
}

export type TokenOwners = (token: string) => Promise<TokenOwner | null>;

export function ownerOf(info: UserInfo): TokenOwner {
  const bindAddrType = info.BindAddrType === BIND_ADDR_TYPE.browser || info.BindAddrType === BIND_ADDR_TYPE.managed ? info.BindAddrType : 0;
  return {
    userName: info.UserName,
    email: info.Email,
    walletAddress: info.WalletAddress ? (info.WalletAddress as `0x${string}`) : null,
    bindAddrType,
  };
}

/** The token's owner (null for a dead or unknown token) through the SSO's getUserInfo, cached per token. */
export function createTokenOwners(sso: SsoApiOptions, { cacheMs = TOKEN_CACHE_MS, now = Date.now } = {}): TokenOwners {
  const url = new URL("/sso/getUserInfo", sso.baseUrl);
  const agent = new (url.protocol === "https:" ? https : http).Agent({ keepAlive: true });
  // Keyed by the token's hash, so raw tokens do not sit in memory; the promise itself, so a burst asks once.
  const cache = new Map<string, { until: number; owner: Promise<TokenOwner | null> }>();

  return (token) => {
    const key = createHash("sha256").update(token).digest("hex");
    const at = now();
    const hit = cache.get(key);
    if (hit && hit.until > at) return hit.owner;
    cache.delete(key);
    for (const [oldest, entry] of cache) {
      if (cache.size < TOKEN_CACHE_MAX && entry.until > at) break;
      cache.delete(oldest);
    }
    const owner = getUserInfo(url, agent, token, sso.internalToken);
    cache.set(key, { until: at + cacheMs, owner });
    // A failure is not an answer about the token, and an owner without a wallet may bind one the next moment (the
    // header asks for its inbox before it does): either way the next call asks again.
    const forget = () => cache.get(key)?.owner === owner && cache.delete(key);
    owner.then((found) => found && !found.walletAddress && forget(), forget);
    return owner;
  };
}

function getUserInfo(url: URL, agent: http.Agent, token: string, internalToken: string | undefined): Promise<TokenOwner | null> {
  const headers: Record<string, string> = { [AUTH_TOKEN_HEADER]: token, accept: "application/json" };
  if (internalToken) headers[INTERNAL_TOKEN_HEADER] = internalToken;
  return new Promise((resolve, reject) => {
    const unreachable = () => reject(new ApiError(503, SSO_UNREACHABLE));
    const req = (url.protocol === "https:" ? https : http).get(url, { agent, headers, timeout: LOOKUP_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", unreachable);
      res.on("end", () => {
        if (res.statusCode === 401) return resolve(null);
        if (res.statusCode !== 200) return unreachable();
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Envelope<UserInfo | null>;
          if (!body.data) return unreachable();
          resolve(ownerOf(body.data));
        } catch {
          unreachable();
        }
      });
    });
    req.on("timeout", () => req.destroy());
    req.on("error", unreachable);
  });
}
