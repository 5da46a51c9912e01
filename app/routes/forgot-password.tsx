import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { HoneypotFields } from "~/components/honeypot-fields";
import { ErrorList, Field, FormNotice } from "~/components/forms";
import { ForgotPasswordSchema } from "~/domain/auth-schemas";
import { safeRedirect } from "~/domain/safe-redirect";
import { requireAnonymous } from "~/services/auth.server";
import { backendProblem, publicApis } from "~/services/apis.server";
import { checkHoneypot, getHoneypot } from "~/services/honeypot.server";
import { makeToast, redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Reset your password | Spark Era" }];

const STEPS = ["send", "verify", "reset"] as const;
type Step = (typeof STEPS)[number];

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirect"));
  await requireAnonymous(request, redirectTo);
  return json({ redirectTo, honeypot: getHoneypot().getInputProps() });
}

/** Three steps, each a POST: send a code, check it, set the new password. The next step is in the answer. */
export async function action({ request }: ActionFunctionArgs) {
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

export default function ForgotPassword() {
  const { redirectTo, honeypot } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const step: Step = actionData?.step ?? "send";
  const [form, fields] = useForm({
    id: `forgot-${step}`,
    lastResult: actionData?.result,
    constraint: getZodConstraint(ForgotPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
  });
  const email = fields.email.value ?? "";
  const code = fields.code.value ?? "";
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="page-title">Reset your password</h1>
      <ol className="mt-3 flex gap-4 text-sm" aria-label="Steps">
        {STEPS.map((s, index) => (
          <li key={s} aria-current={s === step ? "step" : undefined} className={s === step ? "font-semibold text-white" : "text-slate-300"}>
            {index + 1}. {s === "send" ? "Email" : s === "verify" ? "Code" : "New password"}
          </li>
        ))}
      </ol>
      <Form method="post" {...getFormProps(form)} className="card mt-6 flex flex-col gap-4">
        <HoneypotFields honeypot={honeypot} />
        <input type="hidden" name="step" value={step} />
        {actionData?.notice && <FormNotice>{actionData.notice}</FormNotice>}
        {step === "send" ? (
          <Field label="Email" field={fields.email} type="email" inputProps={{ autoComplete: "email", autoFocus: true }} />
        ) : (
          <>
            <input type="hidden" name="email" value={email} />
            <p className="text-sm text-slate-200">
              Account: <span className="font-semibold text-white">{email}</span>
            </p>
          </>
        )}
        {step === "verify" && (
          <Field
            label="Verification code"
            field={fields.code}
            inputProps={{ inputMode: "numeric", autoComplete: "one-time-code", autoFocus: true }}
          />
        )}
        {step === "reset" && (
          <>
            <input type="hidden" name="code" value={code} />
            <Field
              label="New password"
              field={fields.password}
              type="password"
              hint="6 to 18 characters, with at least two of letters, digits and symbols, and no spaces."
              inputProps={{ autoComplete: "new-password", autoFocus: true }}
            />
          </>
        )}
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {step === "send" ? "Send code" : step === "verify" ? "Check code" : "Set new password"}
        </button>
        <p className="text-sm">
          <Link to={`/login?redirect=${encodeURIComponent(redirectTo)}`}>Back to log in</Link>
        </p>
      </Form>
    </div>
  );
}
