import { json } from "@remix-run/node";
import { isAddress, verifyMessage } from "viem";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { LoginSchema, RegisterSchema } from "~/domain/auth-schemas";
import { bindWalletMessage, SIGNED_MESSAGE_MAX_AGE_MS, SIGNED_MESSAGE_MAX_SKEW_MS } from "~core/bind-message";
import { safeRedirect } from "~/domain/safe-redirect";
import { authenticator, createUserSession, requireUser, updateUserInfo, withSession } from "~/services/auth.server";
import { backendClients } from "~/services/backends.server";
import { checkHoneypot } from "~/services/honeypot.server";
import { BackendError } from "~/services/http-client.server";
import { makeToast } from "~/services/session.server";
import { ssoApi } from "~/services/sso.server";

type Reply = SubmissionResult<string[]>;
const fail = (result: Reply) => json({ result, notice: null as string | null }, { status: 400 });
const ok = (result: Reply, notice: string) => json({ result, notice });

/** The backend's refusal becomes a form error; anything else bubbles up. */
function backendMessage(error: unknown) {
  if (error instanceof BackendError) return error.message;
  throw error;
}

export async function loginAction(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") return fail(submission.reply({ hideFields: ["password"] }));
  try {
    const signIn = await authenticator.authenticate("email", request);
    return createUserSession(request, signIn, safeRedirect(submission.value.redirectTo));
  } catch (error) {
    return fail(submission.reply({ formErrors: [backendMessage(error)], hideFields: ["password"] }));
  }
}

export async function registerAction(request: Request, formData: FormData) {
  checkHoneypot(formData);
  const submission = parseWithZod(formData, { schema: RegisterSchema });
  if (submission.status !== "success") return fail(submission.reply({ hideFields: ["password"] }));
  const sso = ssoApi(backendClients(null).sso);
  const input = submission.value;
  if (input.intent === "send-code") {
    try {
      await sso.sendCode(input.email);
      return ok(submission.reply({ hideFields: ["password"] }), `We sent a 6-digit code to ${input.email}. It expires in 10 minutes.`);
    } catch (error) {
      return fail(submission.reply({ fieldErrors: { email: [backendMessage(error)] }, hideFields: ["password"] }));
    }
  }
  try {
    const signIn = await sso.register({ email: input.email, password: input.password, code: input.code, referral: input.referral });
    return createUserSession(request, signIn, safeRedirect(input.redirectTo), input.referral);
  } catch (error) {
    return fail(submission.reply({ formErrors: [backendMessage(error)], hideFields: ["password"] }));
  }
}

/** act=connect: bind a browser wallet by its signature, or create a managed wallet. */
export async function connectAction(request: Request, formData: FormData) {
  const { token, user } = await requireUser(request);
  const sso = ssoApi(backendClients(token).sso);
  const redirectTo = safeRedirect(String(formData.get("redirectTo") ?? ""), "/marketplace/storage");
  const intent = formData.get("intent");
  try {
    if (intent === "create-managed") {
      await withSession(request, () => sso.createManagedWallet());
      const info = await withSession(request, () => sso.getUserInfo());
      return updateUserInfo(request, info, redirectTo, makeToast("success", "Your managed wallet is ready."));
    }
    if (intent === "bind-wallet") {
      const address = String(formData.get("address") ?? "");
      const signature = String(formData.get("signature") ?? "");
      const issuedAt = String(formData.get("issuedAt") ?? "");
      await verifyBindSignature(user.UserName, address, signature, issuedAt);
      const info = await withSession(request, () => sso.bindWallet({ userName: user.UserName, address, signature, issuedAt }));
      return updateUserInfo(request, info, redirectTo, makeToast("success", "Your wallet is bound to your account."));
    }
  } catch (error) {
    return json({ result: null, notice: null, error: backendMessage(error) }, { status: 400 });
  }
  return json({ result: null, notice: null, error: "Unknown action" }, { status: 400 });
}

/** Checked here before the SSO API is asked to bind: a forged or stale signature never leaves this server. */
async function verifyBindSignature(userName: string, address: string, signature: string, issuedAt: string) {
  const age = Date.now() - Date.parse(issuedAt);
  if (!isAddress(address) || !/^0x[0-9a-fA-F]{130}$/.test(signature) || Number.isNaN(age)) {
    throw new BackendError("The wallet signature is incomplete. Please sign again.", 400);
  }
  if (age > SIGNED_MESSAGE_MAX_AGE_MS || age < -SIGNED_MESSAGE_MAX_SKEW_MS) {
    throw new BackendError("The wallet signature has expired. Please sign again.", 400);
  }
  const message = bindWalletMessage({ userName, address, issuedAt });
  const valid = await verifyMessage({ address, message, signature: signature as `0x${string}` }).catch(() => false);
  if (!valid) throw new BackendError("The signature does not match this wallet.", 400);
}
