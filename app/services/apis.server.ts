/**
 * The one way loaders and actions reach the two backends of product §7. `apis(request)` reads the session once
 * and returns typed clients of the SSO, market, orders and invites APIs carrying the user's token; a 401 from
 * any of them is product §8's expired session, which the client itself turns into the redirect showing the
 * "Tips" dialog, so no route wraps its calls (the root loader asks for the error instead and shows the dialog in
 * place). `backendProblem` is the one answer to every other failure.
 */
import { redirect } from "@remix-run/node";
import type { UserInfo } from "~core/api/sso";
import { loginHref } from "~/domain/login-href";
import { safeRedirect } from "~/domain/safe-redirect";
import { backendClients } from "./backends.server";
import { BackendError, SessionExpiredError, type BackendClient, type RequestOptions } from "./http-client.server";
import { invitesApi } from "./invites.server";
import { bridgeApi } from "./bridge-api.server";
import { marketApi } from "./market.server";
import { ordersApi } from "./orders.server";
import { offersApi } from "./offers.server";
import { commitSession, getSession } from "./session.server";
import { ssoApi } from "./sso.server";

function typedApis({ sso, market }: { sso: BackendClient; market: BackendClient }) {
  return {
    sso: ssoApi(sso),
    market: marketApi(market),
    orders: ordersApi(market, sso),
    offers: offersApi(market, sso),
    invites: invitesApi(market),
    bridge: bridgeApi(market),
  };
}

export type Apis = ReturnType<typeof typedApis>;

/** The session's token and user info (the root loader loads the info when only the token is there, product §2). */
export async function getAuth(request: Request): Promise<{ token: string | null; user: UserInfo | null }> {
  const session = await getSession(request);
  const token = session.get("token") ?? null;
  return { token, user: token ? (session.get("user") ?? null) : null };
}

function currentPath(request: Request) {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** Product §8 for a 401: forget the dead token and show the "Tips" dialog on `returnTo`, to stay or log in again. */
async function sessionExpiredRedirect(request: Request, returnTo: string) {
  const session = await getSession(request);
  session.unset("token");
  session.unset("user");
  session.flash("dialog", { kind: "session-expired", redirectTo: safeRedirect(returnTo) });
  return redirect(safeRedirect(returnTo), { headers: { "Set-Cookie": await commitSession(session) } });
}

export interface ApisOptions {
  /** Where the expired-session dialog shows: this request's page unless said otherwise. */
  returnTo?: string;
  /**
   * What a 401 does. "redirect": the call rejects with the redirect Response to `returnTo`, which Remix follows.
   * "throw": it rejects with the SessionExpiredError itself, for the one caller that must not redirect: the root
   * loader, which shows the dialog on the page it is rendering.
   */
  onExpired?: "redirect" | "throw";
}

/** The session's identity and its clients; a call that meets a 401 rejects as `onExpired` says. */
export async function apis(request: Request, { returnTo = currentPath(request), onExpired = "redirect" }: ApisOptions = {}) {
  const { token, user } = await getAuth(request);
  const expired = async (error: unknown): Promise<never> => {
    if (error instanceof SessionExpiredError) throw await sessionExpiredRedirect(request, returnTo);
    throw error;
  };
  const guarded = (client: BackendClient): BackendClient => ({
    get: <T>(path: string, options?: RequestOptions) => client.get<T>(path, options).catch(expired),
    post: <T>(path: string, options?: RequestOptions) => client.post<T>(path, options).catch(expired),
  });
  const { sso, market } = backendClients(token);
  const clients = onExpired === "throw" ? { sso, market } : { sso: guarded(sso), market: guarded(market) };
  return { token, user, wallet: user?.WalletAddress || undefined, ...typedApis(clients) };
}

/** The same for a signed-in user only: a visitor is sent to log in and come back to this page. */
export async function signedInApis(request: Request, options?: { returnTo?: string }) {
  const api = await apis(request, options);
  if (!api.token || !api.user) throw redirect(loginHref(currentPath(request)));
  return { ...api, token: api.token, user: api.user };
}

/** Anonymous clients: no token, so no expired session (signing in, the public market, a payment's status). */
export function publicApis() {
  return typedApis(backendClients(null));
}

export interface BackendProblem {
  /** What the page or action answers with. */
  status: number;
  /** What it shows: the backend's words, after "The market could not be reached:" when it failed or was busy. */
  message: string;
  /** The backend's own words, for a form that shows any refusal next to its fields (with Conform's 400). */
  reason: string;
}

/**
 * The one mapping of a backend failure (a `BackendError`; anything else, such as the expired-session redirect,
 * is thrown on): down, hung or failing is 502 and busy (429) 503, never a 500 page; a refusal keeps 404 (no such
 * thing) and 409 (it changed under the page) and is otherwise a 400.
 */
export function backendProblem(error: unknown): BackendProblem {
  if (!(error instanceof BackendError)) throw error;
  const reason = error.message;
  if (error.status >= 500 || error.status === 429) {
    return { status: error.status === 429 ? 503 : 502, message: `The market could not be reached: ${reason}`, reason };
  }
  return { status: error.status === 404 || error.status === 409 ? error.status : 400, message: reason, reason };
}
