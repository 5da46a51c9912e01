/**
 * Log in, register and bind a wallet, server side: Conform parses every post with the auth schemas (Zod), and
 * routes/login/route.tsx only delegates, so the page carries neither.
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, redirect } from "@remix-run/node";
import { AUTH_MESSAGES, EMAIL_TAKEN } from "~/domain/auth-rules";
import { LoginSchema, RegisterSchema } from "~/domain/auth-schemas";
import { WALLET_SIGN_IN_INTENT } from "~/features/auth/wallet-sign-in";
import { walletSignIn } from "~/features/auth/wallet-sign-in.server";
import { safeRedirect } from "~/domain/safe-redirect";
import { backendProblem, getAuth, publicApis, signedInApis } from "~/services/apis.server";
import { authenticator, bindSignatureProblem, createUserSession, updateUserInfo } from "~/services/auth.server";
import { checkHoneypot, getHoneypot } from "~/services/honeypot.server";
import { makeToast, pageUser } from "~/services/session.server";

export type Mode = "login" | "register" | "connect";

export async function loginPage(request: Request) {
  const url = new URL(request.url);
  const act = url.searchParams.get("act");
  const redirectTo = safeRedirect(url.searchParams.get("redirect"));
  const mode: Mode = act === "reg" ? "register" : act === "connect" ? "connect" : "login";
  const { user } = await getAuth(request);
  if (mode === "connect") {
    if (!user) throw redirect(`/login?redirect=${encodeURIComponent(`/login?act=connect&redirect=${encodeURIComponent(redirectTo)}`)}`);
    const { userName, walletAddress, managedWallet } = pageUser(user);
    return json({ mode, redirectTo, referral: "", honeypot: null, user: { userName, wallet: walletAddress, managedWallet } });
  }
  if (user) throw redirect(redirectTo);
  const referral = (url.searchParams.get("code") ?? "").slice(0, 64);
  return json({ mode, redirectTo, referral, user: null, honeypot: mode === "register" ? getHoneypot().getInputProps() : null });
}

export type Reply = SubmissionResult<string[]>;
/** Every answer of the action: a form's Conform reply (with a notice once a code is sent), or binding's error. */
export type LoginActionData = { result: Reply; notice: string | null } | { result: null; notice: null; error: string };
const fail = (result: Reply) => json<LoginActionData>({ result, notice: null }, { status: 400 });
const ok = (result: Reply, notice: string) => json<LoginActionData>({ result, notice });
const refused = (error: string) => json<LoginActionData>({ result: null, notice: null, error }, { status: 400 });

async function loginAction(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") return fail(submission.reply({ hideFields: ["password"] }));
  try {
    const signIn = await authenticator.authenticate("email", request);
    return createUserSession(request, signIn, safeRedirect(submission.value.redirectTo));
  } catch (error) {
    // A sign-in lockout (429) is a message next to the form like any refusal, never an outage page.
    return fail(submission.reply({ formErrors: [backendProblem(error).reason], hideFields: ["password"] }));
  }
}

async function registerAction(request: Request, formData: FormData) {
  checkHoneypot(formData);
  const submission = parseWithZod(formData, { schema: RegisterSchema });
  if (submission.status !== "success") return fail(submission.reply({ hideFields: ["password"] }));
  const { sso } = publicApis();
  const input = submission.value;
  if (input.intent === "send-code") {
    const refusal = await registerEmailRefusal(sso, input.email);
    if (refusal) return fail(submission.reply({ fieldErrors: { email: [refusal] }, hideFields: ["password"] }));
    try {
      await sso.sendCode(input.email);
      return ok(submission.reply({ hideFields: ["password"] }), `We sent a 6-digit code to ${input.email}. It expires in 10 minutes.`);
    } catch (error) {
      return fail(submission.reply({ fieldErrors: { email: [backendProblem(error).reason] }, hideFields: ["password"] }));
    }
  }
  try {
    const signIn = await sso.register({ email: input.email, password: input.password, code: input.code, referral: input.referral });
    return createUserSession(request, signIn, safeRedirect(input.redirectTo), input.referral);
  } catch (error) {
    return fail(submission.reply({ formErrors: [backendProblem(error).reason], hideFields: ["password"] }));
  }
}

/**
 * product §5 userInfoValidate, before a code is sent: the SSO's own email check ("Invalid email address") and
 * whether the email already has an account. Null when the code may be sent.
 */
async function registerEmailRefusal(sso: ReturnType<typeof publicApis>["sso"], email: string): Promise<string | null> {
  try {
    return (await sso.userInfoValidate(email)).exists ? EMAIL_TAKEN : null;
  } catch (error) {
    const problem = backendProblem(error);
    // The app sends only the key UserName, so the SSO's 400 is about the email itself.
    return problem.status === 400 ? AUTH_MESSAGES.invalidEmail : problem.reason;
  }
}

/** act=connect: bind a browser wallet by its signature, or create a managed wallet. */
async function connectAction(request: Request, formData: FormData) {
  const { user, sso } = await signedInApis(request);
  const redirectTo = safeRedirect(String(formData.get("redirectTo") ?? ""), "/marketplace/storage");
  const intent = formData.get("intent");
  try {
    if (intent === "create-managed") {
      await sso.createManagedWallet();
      const info = await sso.getUserInfo();
      return updateUserInfo(request, info, redirectTo, makeToast("success", "Your managed wallet is ready."));
    }
    if (intent === "bind-wallet") {
      const signed = {
        userName: user.UserName,
        address: String(formData.get("address") ?? ""),
        signature: String(formData.get("signature") ?? ""),
        issuedAt: String(formData.get("issuedAt") ?? ""),
      };
      const problem = await bindSignatureProblem(signed);
      if (problem) return refused(problem);
      const info = await sso.bindWallet(signed);
      return updateUserInfo(request, info, redirectTo, makeToast("success", "Your wallet is bound to your account."));
    }
  } catch (error) {
    return refused(backendProblem(error).reason);
  }
  return refused("Unknown action");
}

export async function loginPost(request: Request) {
  const url = new URL(request.url);
  const formData = await request.clone().formData();
  const act = url.searchParams.get("act");
  if (act === "connect") return connectAction(request, formData);
  if (act === "reg") return registerAction(request, formData);
  if (formData.get("intent") === WALLET_SIGN_IN_INTENT) {
    const signedIn = await walletSignIn(request, formData);
    return typeof signedIn === "string" ? refused(signedIn) : signedIn;
  }
  return loginAction(request, formData);
}
