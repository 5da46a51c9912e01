import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { isAddress, verifyMessage } from "viem";
import { bindWalletMessage, SIGNED_MESSAGE_MAX_AGE_MS, SIGNED_MESSAGE_MAX_SKEW_MS } from "~core/bind-message";
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

/**
 * Checked here before the SSO API is asked to bind: a forged or stale signature never leaves this server.
 * Null when the signature is good, else what to tell the user.
 */
export async function bindSignatureProblem(input: {
  userName: string;
  address: string;
  signature: string;
  issuedAt: string;
}): Promise<string | null> {
  const { userName, address, signature, issuedAt } = input;
  const age = Date.now() - Date.parse(issuedAt);
  if (!isAddress(address) || !/^0x[0-9a-fA-F]{130}$/.test(signature) || Number.isNaN(age)) {
    return "The wallet signature is incomplete. Please sign again.";
  }
  if (age > SIGNED_MESSAGE_MAX_AGE_MS || age < -SIGNED_MESSAGE_MAX_SKEW_MS) return "The wallet signature has expired. Please sign again.";
  const message = bindWalletMessage({ userName, address, issuedAt });
  const valid = await verifyMessage({ address, message, signature: signature as `0x${string}` }).catch(() => false);
  return valid ? null : "The signature does not match this wallet.";
}
