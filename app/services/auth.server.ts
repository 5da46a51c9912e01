import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { LoginSchema } from "~/domain/auth-schemas";
import { loginHref, safeRedirect } from "~/domain/safe-redirect";
import { backendClients } from "./backends.server";
import { SessionExpiredError } from "./http-client.server";
import { invitesApi } from "./invites.server";
import type { SignIn, UserInfo } from "~core/api/sso";
import { commitSession, getSession, sessionStorage, type Toast } from "./session.server";
import { ssoApi } from "./sso.server";

/** Email + password through the SSO API. The form was validated by the action before this runs. */
export const authenticator = new Authenticator<SignIn>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const { email, password } = LoginSchema.parse(Object.fromEntries(form));
    return ssoApi(backendClients(null).sso).login(email, password);
  }),
  "email",
);

/** The session's token and user info (loading the info when only the token is there, SPEC §2). */
export async function getAuth(request: Request): Promise<{ token: string | null; user: UserInfo | null }> {
  const session = await getSession(request);
  const token = session.get("token") ?? null;
  return { token, user: token ? (session.get("user") ?? null) : null };
}

/** Stores the SSO token and user info in the cookie session, then redirects. */
export async function createUserSession(request: Request, signIn: SignIn, redirectTo: string, referral?: string) {
  const session = await getSession(request);
  session.set("token", signIn.token);
  session.set("user", signIn.userInfo);
  if (referral) session.set("pendingReferral", referral);
  return redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": await commitSession(session) } });
}

/**
 * Replaces the stored user info after a wallet was bound, and redirects. A referral waiting for a wallet
 * is accepted now; whether the market takes it or not (own code, already invited) is not the user's problem.
 */
export async function updateUserInfo(request: Request, user: UserInfo, redirectTo: string, toast?: Parameters<typeof flashToast>[1]) {
  const session = await getSession(request);
  session.set("user", user);
  const referral = session.get("pendingReferral");
  const token = session.get("token");
  if (referral && token && user.WalletAddress) {
    await invitesApi(backendClients(token).market)
      .acceptInvite(referral)
      .catch(() => undefined);
    session.unset("pendingReferral");
  }
  if (toast) flashToast(session, toast);
  return redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": await commitSession(session) } });
}

function flashToast(session: Awaited<ReturnType<typeof getSession>>, toast: Toast) {
  session.flash("toast", toast);
}

function currentPath(request: Request) {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** The signed-in user, or a redirect to /login that brings them back here. */
export async function requireUser(request: Request) {
  const auth = await getAuth(request);
  if (!auth.token || !auth.user) throw redirect(loginHref(currentPath(request)));
  return { token: auth.token, user: auth.user };
}

/** Visitors only: a signed-in user goes to `redirectTo` instead. */
export async function requireAnonymous(request: Request, redirectTo = "/home") {
  const auth = await getAuth(request);
  if (auth.token) throw redirect(safeRedirect(redirectTo));
}

/** Ends the session on the SSO backend (best effort) and clears the cookie. */
export async function logout(request: Request, redirectTo: string) {
  const session = await getSession(request);
  const token = session.get("token");
  if (token) {
    // The cookie is cleared whatever the backend says: a dead token must not keep anyone signed in here.
    await ssoApi(backendClients(token).sso)
      .loginOut()
      .catch(() => undefined);
  }
  return redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": await sessionStorage().destroySession(session) } });
}

/**
 * SPEC §8 for a 401: forget the dead token, and show the "Tips" dialog on `returnTo`,
 * from where the user may stay or log in again.
 */
export async function sessionExpiredRedirect(request: Request, returnTo = currentPath(request)) {
  const session = await getSession(request);
  session.unset("token");
  session.unset("user");
  session.flash("dialog", { kind: "session-expired", redirectTo: safeRedirect(returnTo) });
  return redirect(safeRedirect(returnTo), { headers: { "Set-Cookie": await commitSession(session) } });
}

/** Runs a backend call for a loader or action, turning an expired session into SPEC §8's dialog. */
export async function withSession<T>(request: Request, run: () => Promise<T>, returnTo?: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SessionExpiredError) throw await sessionExpiredRedirect(request, returnTo);
    throw error;
  }
}
