import type { Request, RequestHandler, Response } from "express";
import rateLimit, { type Store } from "express-rate-limit";
import { hasInternalToken, networkKey } from "../backend/client-address";
import { apiPrefixOf } from "./api-paths";
import { isMetadataPath } from "./nft-metadata";

const MESSAGE = "Too many attempts. Please wait a minute and try again.";
export const AUTH_UNAVAILABLE = "Signing in is busy just now. Please try again in a minute.";

/**
 * Thrown by a tier's store when the shared count cannot be read and the tier must not guess (the auth tier,
 * decision 0030): the request is answered 503, neither counted nor let through.
 */
export class SharedBudgetUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the shared rate-limit count did not answer: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** Form posts that sign in, register, send codes, reset passwords or probe whether an email exists. */
const AUTH_PATHS = [
  "/login",
  "/resources/wallet-sign-in",
  "/forgot-password",
  "/basic/login",
  "/basic/sendCode",
  "/basic/userInfo",
  "/basic/sendCodeToForgetPwd",
  "/basic/validateForgetCode",
  "/basic/forgetPwd",
  "/sso/loginOther",
  "/sso/walletNonce",
  "/sso/userInfoValidate",
];

const AUTH_ROUTES = new Set(AUTH_PATHS.map(routePath));

/**
 * Reads that tell who holds a wallet (the SSO's public look-up and the player pages built on it): a walk over many
 * wallets maps them to players, so they get a budget of their own (issue 43), well above what a person browses.
 */
const LOOKUP_PREFIXES = ["/api/user/", "/player/"];

/** The tiers, each with its own budget (and, in a shared store, its own keys). */
export type RateLimitTier = "general" | "writes" | "auth" | "lookups";

/** Per minute, before RATE_LIMIT_MULTIPLIER. */
export const TIER_LIMITS: Record<RateLimitTier, number> = { general: 1000, writes: 100, auth: 10, lookups: 60 };

/**
 * Rate-limit tiers as in the Epic Stack: reads are generous, writes less so, sign-in paths strict.
 * `multiple` scales them all (the end-to-end suite signs in many times from one address).
 * Only a request carrying the `internalToken` (the app calling its backends) is exempt.
 * `store` makes each tier's store (a fresh one per tier: server/redis.ts shares them through Redis); without it each
 * tier counts in this process's memory.
 */
export function rateLimits({
  multiple = 1,
  apiPaths,
  internalToken,
  store,
}: {
  multiple?: number;
  apiPaths: string[];
  internalToken?: string;
  store?: (tier: RateLimitTier) => Store;
}): RequestHandler {
  const refuse = (req: Request, res: Response, status: 429 | 503, message: string) => {
    // API callers get the backends' envelope, metadata clients JSON; people get a readable page.
    if (isApiPath(req, apiPaths)) {
      res.status(status).json({ code: status, msg: message, data: null, success: false });
      return;
    }
    if (isMetadataPath(req.path)) {
      res.status(status).set("Access-Control-Allow-Origin", "*").json({ error: message });
      return;
    }
    const title = status === 429 ? "Too many attempts" : "Signing in is busy";
    res
      .status(status)
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Spark Era</title></head><body><h1>${title}</h1><p>${message}</p><p><a href="/home">Back home</a></p></body></html>`,
      );
  };
  const handler = (req: Request, res: Response) => refuse(req, res, 429, MESSAGE);
  const tier = (name: RateLimitTier) =>
    rateLimit({
      windowMs: 60_000,
      limit: TIER_LIMITS[name] * multiple,
      store: store?.(name),
      standardHeaders: true,
      legacyHeaders: false,
      handler,
      keyGenerator: (req) => networkKey(req.ip ?? req.socket.remoteAddress ?? "unknown"),
      // Said in our own log instead: the start log warns of TRUST_PROXY=true, warnOnUntrustedForwarding of a proxy not trusted.
      validate: { trustProxy: false, xForwardedForHeader: false },
    });
  const general = tier("general");
  const writes = tier("writes");
  const lookups = tier("lookups");
  const authTier = tier("auth");
  const auth: RequestHandler = (req, res, next) =>
    authTier(req, res, (error?: unknown) => {
      if (!(error instanceof SharedBudgetUnavailable)) return next(error);
      res.set("Retry-After", "60");
      refuse(req, res, 503, AUTH_UNAVAILABLE);
    });
  return (req, res, next) => {
    // The app's own calls speak for every user at once: they were limited when the user's request reached the app.
    if (hasInternalToken(req, internalToken)) return next();
    const route = routePath(req.path);
    if (req.method === "GET" || req.method === "HEAD") {
      return LOOKUP_PREFIXES.some((prefix) => route.startsWith(prefix)) ? lookups(req, res, next) : general(req, res, next);
    }
    if (AUTH_ROUTES.has(route)) return auth(req, res, next);
    return writes(req, res, next);
  };
}

/**
 * The route a path reaches: Remix matches without regard to case or a trailing slash, and a JavaScript form posts to
 * the route's `.data` URL (single fetch), so `/Login/` and `/login.data` are sign-in posts as much as `/login`.
 */
export function routePath(path: string): string {
  const bare = path
    .toLowerCase()
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  return bare || "/";
}

function isApiPath(req: Request, apiPaths: string[]): boolean {
  // originalUrl: inside a mounted router req.path has lost its prefix.
  const pathname = req.originalUrl.split("?", 1)[0];
  return apiPrefixOf(pathname, apiPaths) !== undefined;
}

/** The app calling its own embedded backends: the internal token on a backend path. */
export function isInternalApiCall(req: Request, apiPaths: string[], internalToken: string): boolean {
  return isApiPath(req, apiPaths) && hasInternalToken(req, internalToken);
}

/**
 * A request whose X-Forwarded-For comes from a peer TRUST_PROXY does not trust: every client behind that proxy shares
 * its address, and so one rate-limit bucket. Say so once, the first time a request shows it. Asked of the app's own
 * trust function, so the warning holds for every form of the setting (a list that misses the proxy included).
 */
export function warnOnUntrustedForwarding(warn: (message: string) => void = console.warn): RequestHandler {
  let warned = false;
  return (req, _res, next) => {
    const peer = req.socket.remoteAddress;
    const trusts = req.app.get("trust proxy fn") as (address: string | undefined, hop: number) => boolean;
    if (!warned && req.headers["x-forwarded-for"] && !trusts(peer, 0)) {
      warned = true;
      warn(
        `Requests arrive with X-Forwarded-For from ${peer}, which TRUST_PROXY does not trust: every client behind it shares ` +
          "one rate-limit bucket and one sign-in lock. Set TRUST_PROXY to the proxies in front of this server " +
          "(e.g. 1 for one hop, or their addresses).",
      );
    }
    next();
  };
}
