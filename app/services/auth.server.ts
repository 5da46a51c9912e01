import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { LoginSchema } from "~/domain/auth-schemas";
import { safeRedirect } from "~/domain/safe-redirect";
import { apis, getAuth, publicApis } from "./apis.server";
import type { SignIn, UserInfo } from "~core/api/sso";
import { commitSession, getSession, sessionStorage, type Toast } from "./session.server";

/** Email + password through the SSO API. The form was validated by the action before this runs. */
export const authenticator = new Authenticator<SignIn>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const { email, password } = LoginSchema.parse(Object.fromEntries(form));
    return publicApis().sso.login(email, password);
  }),
  "email",
);

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
    const { invites } = await apis(request);
    await invites.acceptInvite(referral).catch(() => undefined);
    session.unset("pendingReferral");
  }
  if (toast) flashToast(session, toast);
  return redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": await commitSession(session) } });
}

function flashToast(session: Awaited<ReturnType<typeof getSession>>, toast: Toast) {
  session.flash("toast", toast);
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
    const { sso } = await apis(request);
    await sso.loginOut().catch(() => undefined);
  }
  return redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": await sessionStorage().destroySession(session) } });
}
