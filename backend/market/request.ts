/** What every market route reads from its request: the input, and who is calling. */
import type { Request, Router } from "express";
import type { ZodType, ZodTypeDef } from "zod";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import { ApiError, handle, sendOk } from "../http";
import type { MarketCore } from "./core";
import { normalizeQuery } from "./shared/listing-schemas";
import { parseMarketInput } from "./shared/params";
import type { TokenOwner } from "./shared/token-owners";
import { requireCallerWallet } from "./trades";

const SESSION_EXPIRED = "Invalid session, or session has expired, please log in again.";
const BIND_WALLET = "Please bind a wallet address";

type Caller = TokenOwner & { walletAddress: `0x${string}` };

/** Query string and body together: product §7 sends some POST parameters in the query (favorites, views, takeOut). */
export function marketInput(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  return normalizeQuery({ ...(req.query as Record<string, unknown>), ...body });
}

/** The owner of the request's authToken (asked of the SSO, shared/token-owners.ts), or null when there is none or it is not live. */
export async function sessionOwner(core: MarketCore, req: Request): Promise<TokenOwner | null> {
  const token = req.get(AUTH_TOKEN_HEADER);
  return token ? core.tokenOwner(token) : null;
}

/** The logged-in caller with a bound wallet: 401 without a live token, 403 without a wallet. */
export async function requireCaller(core: MarketCore, req: Request): Promise<Caller> {
  const found = await sessionOwner(core, req);
  if (!found) throw new ApiError(401, SESSION_EXPIRED);
  if (!found.walletAddress) throw new ApiError(403, BIND_WALLET);
  return found as Caller;
}

/** The logged-in caller, wallet or not: 401 without a live token. */
export async function requireOwner(core: MarketCore, req: Request): Promise<TokenOwner> {
  const found = await sessionOwner(core, req);
  if (!found) throw new ApiError(401, SESSION_EXPIRED);
  return found;
}

/** The logged-in caller (requireCaller), their input, and the one time every check and write of their step uses. */
export async function callerRequest<T>(core: MarketCore, req: Request, schema: ZodType<T, ZodTypeDef, unknown>) {
  const who = await requireCaller(core, req);
  const body = parseMarketInput(schema, marketInput(req));
  return { who, body, now: Date.now() };
}

/** A signed order's step (callerRequest), and the wallet that signs it: the caller's, which the input's `address` must name. */
export async function orderRequest<T extends { address: string }>(core: MarketCore, req: Request, schema: ZodType<T, ZodTypeDef, unknown>) {
  const request = await callerRequest(core, req, schema);
  return { ...request, wallet: requireCallerWallet(request.who, request.body.address) as `0x${string}` };
}

/** GET `path` for anyone: its input parsed with `schema`, answered with what `answer` makes of it now. */
export function publicGet<T>(
  router: Router,
  path: string,
  schema: ZodType<T, ZodTypeDef, unknown>,
  answer: (input: T, now: number) => Promise<unknown>,
) {
  router.get(
    path,
    handle(async (req, res) => sendOk(res, await answer(parseMarketInput(schema, marketInput(req)), Date.now()))),
  );
}
