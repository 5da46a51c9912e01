/**
 * Resetting a password, server side: Conform parses each step's post with the schema (Zod), and
 * routes/forgot-password/route.tsx only delegates, so the page carries neither.
 */
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { ForgotPasswordSchema } from "~/domain/auth-schemas";
import { safeRedirect } from "~/domain/safe-redirect";
import { requireAnonymous } from "~/services/auth.server";
import { backendProblem, publicApis } from "~/services/apis.server";
import { checkHoneypot, getHoneypot } from "~/services/honeypot.server";
import { makeToast, redirectWithToast } from "~/services/session.server";

export const STEPS = ["send", "verify", "reset"] as const;
export type Step = (typeof STEPS)[number];

export async function forgotPasswordPage(request: Request) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirect"));
  await requireAnonymous(request, redirectTo);
  return json({ redirectTo, honeypot: getHoneypot().getInputProps() });
}

/** Three steps, each a POST: send a code, check it, set the new password. The next step is in the answer. */
export async function forgotPasswordPost(request: Request) {
  const formData = await request.formData();
  checkHoneypot(formData);
  const submission = parseWithZod(formData, { schema: ForgotPasswordSchema });
  const step = STEPS.find((name) => name === formData.get("step")) ?? "send";
  const answer = (nextStep: Step, notice: string | null, status = 200) =>
    json({ result: submission.reply({ hideFields: ["password"] }), step: nextStep, notice }, { status });
  if (submission.status !== "success") return answer(step, null, 400);

  const { sso } = publicApis();
  const input = submission.value;
  try {
    if (input.step === "send") {
      await sso.sendCodeToForgetPwd(input.email);
      return answer("verify", `We sent a 6-digit code to ${input.email}. It expires in 10 minutes.`);
    }
    if (input.step === "verify") {
      await sso.validateForgetCode(input.email, input.code);
      return answer("reset", "Code accepted. Choose a new password.");
    }
    await sso.forgetPwd(input.email, input.password, input.code);
    const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirect"));
    return redirectWithToast(
      request,
      `/login?redirect=${encodeURIComponent(redirectTo)}`,
      makeToast("success", "Your password has been reset. Log in with your new password."),
    );
  } catch (error) {
    // Any refusal is the form's error, with Conform's 400: a code's cooldown (429) is a message to read.
    const { reason } = backendProblem(error);
    const field = input.step === "send" ? "email" : input.step === "verify" ? "code" : "";
    const result = submission.reply(
      field ? { fieldErrors: { [field]: [reason] }, hideFields: ["password"] } : { formErrors: [reason], hideFields: ["password"] },
    );
    return json({ result, step: input.step, notice: null }, { status: 400 });
  }
}
