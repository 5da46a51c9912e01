import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { HoneypotFields } from "~/components/honeypot-fields";
import { ErrorList } from "~/components/error-list";
import { Field, FormNotice } from "~/components/forms";
import { useFieldRules } from "~/components/use-field-rules";
import { FORGOT_RULES } from "~/domain/auth-rules";
import { forgotPasswordPage, forgotPasswordPost, STEPS, type Step } from "~/routes/forgot-password/route.server";

export const meta: MetaFunction = () => [{ title: "Reset your password | Spark Era" }];

export const loader = ({ request }: LoaderFunctionArgs) => forgotPasswordPage(request);
/** Three steps, each a POST: send a code, check it, set the new password. The next step is in the answer. */
export const action = ({ request }: ActionFunctionArgs) => forgotPasswordPost(request);

export default function ForgotPassword() {
  const { redirectTo, honeypot } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const step: Step = actionData?.step ?? "send";
  const { form, formErrorId, formErrors, field } = useFieldRules({
    id: `forgot-${step}`,
    rules: FORGOT_RULES[step],
    lastResult: actionData?.result,
  });
  // The steps after the first carry what the person gave before, as the action answered it.
  const email = field("email").defaultValue ?? "";
  const code = field("code").defaultValue ?? "";
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
      <Form method="post" {...form} className="card mt-6 flex flex-col gap-4">
        <HoneypotFields honeypot={honeypot} />
        <input type="hidden" name="step" value={step} />
        {actionData?.notice && <FormNotice>{actionData.notice}</FormNotice>}
        {step === "send" ? (
          <Field label="Email" field={field("email")} type="email" inputProps={{ autoComplete: "email", autoFocus: true }} />
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
            field={field("code")}
            inputProps={{ inputMode: "numeric", autoComplete: "one-time-code", autoFocus: true }}
          />
        )}
        {step === "reset" && (
          <>
            <input type="hidden" name="code" value={code} />
            <Field
              label="New password"
              field={field("password")}
              type="password"
              hint="6 to 18 characters, with at least two of letters, digits and symbols, and no spaces."
              inputProps={{ autoComplete: "new-password", autoFocus: true }}
            />
          </>
        )}
        <ErrorList id={formErrorId} errors={formErrors} />
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
