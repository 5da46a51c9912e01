import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ClientOnly } from "remix-utils/client-only";
import type { HoneypotInputProps } from "remix-utils/honeypot/server";
import { HoneypotFields } from "~/components/honeypot-fields";
import { ErrorList } from "~/components/error-list";
import { Field, FormNotice } from "~/components/forms";
import { useFieldRules } from "~/components/use-field-rules";
import { LOGIN_RULES, REGISTER_RULES, SEND_CODE_RULES } from "~/domain/auth-rules";
import { BindWalletButton } from "~/features/auth/bind-wallet-button";
import { WalletSignIn } from "~/features/auth/wallet-sign-in";
import { loginPage, loginPost } from "~/routes/login/route.server";

export const loader = ({ request }: LoaderFunctionArgs) => loginPage(request);
export const action = ({ request }: ActionFunctionArgs) => loginPost(request);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.mode === "register" ? "Create an account" : data?.mode === "connect" ? "Bind a wallet" : "Log in"} | Spark Era` },
];

function withRedirect(path: string, redirectTo: string) {
  return `${path}${path.includes("?") ? "&" : "?"}redirect=${encodeURIComponent(redirectTo)}`;
}

function LoginForm({ redirectTo }: { redirectTo: string }) {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const { form, formErrorId, formErrors, field } = useFieldRules({ id: "login", rules: LOGIN_RULES, lastResult: actionData?.result });
  return (
    <Form method="post" {...form} className="flex flex-col gap-4">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field label="Email" field={field("email")} type="email" inputProps={{ autoComplete: "username", autoFocus: true }} />
      <Field label="Password" field={field("password")} type="password" inputProps={{ autoComplete: "current-password" }} />
      <ErrorList id={formErrorId} errors={formErrors} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Logging in…" : "Log in"}
      </button>
      <p className="flex flex-wrap justify-between gap-2 text-sm">
        <Link to={withRedirect("/forgot-password", redirectTo)}>Forgot password?</Link>
        <Link to={withRedirect("/login?act=reg", redirectTo)}>Create an account</Link>
      </p>
    </Form>
  );
}

function RegisterForm({ redirectTo, referral, honeypot }: { redirectTo: string; referral: string; honeypot: HoneypotInputProps }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const { form, formErrorId, formErrors, field } = useFieldRules({
    id: "register",
    rules: REGISTER_RULES,
    // "Send code" needs only the email; "Register" needs every field.
    rulesFor: (submitter) => (submitter?.getAttribute("value") === "send-code" ? SEND_CODE_RULES : REGISTER_RULES),
    lastResult: actionData?.result,
    defaultValue: { referral },
  });
  const notice = actionData?.notice ?? null;
  return (
    <Form method="post" {...form} className="flex flex-col gap-4">
      <HoneypotFields honeypot={honeypot} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field
        label="Email"
        field={field("email")}
        type="email"
        inputProps={{ autoComplete: "email", autoFocus: true }}
        after={
          <button type="submit" name="intent" value="send-code" className="btn-secondary shrink-0" disabled={busyIntent === "send-code"}>
            {busyIntent === "send-code" ? "Sending…" : "Send code"}
          </button>
        }
      />
      {notice && <FormNotice>{notice}</FormNotice>}
      <Field label="Verification code" field={field("code")} inputProps={{ inputMode: "numeric", autoComplete: "one-time-code" }} />
      <Field
        label="Password"
        field={field("password")}
        type="password"
        hint="6 to 18 characters, with at least two of letters, digits and symbols, and no spaces."
        inputProps={{ autoComplete: "new-password" }}
      />
      <Field label="Referral code (optional)" field={field("referral")} inputProps={{ maxLength: 64 }} />
      <ErrorList id={formErrorId} errors={formErrors} />
      <button type="submit" name="intent" value="register" className="btn-primary" disabled={busyIntent === "register"}>
        {busyIntent === "register" ? "Creating your account…" : "Register"}
      </button>
      <p className="text-sm">
        Already have an account? <Link to={withRedirect("/login", redirectTo)}>Log in</Link>
      </p>
    </Form>
  );
}

function ConnectWallet({ redirectTo, user }: { redirectTo: string; user: { userName: string; wallet: string; managedWallet: boolean } }) {
  const actionData = useActionData<typeof action>();
  const error = actionData && "error" in actionData ? actionData.error : null;
  if (user.wallet) {
    return (
      <div className="flex flex-col gap-3">
        <p>{user.managedWallet ? "Your account has a managed wallet:" : "Your account is bound to the wallet:"}</p>
        <p className="select-all break-all font-mono text-sm text-white">{user.wallet}</p>
        <Link to={redirectTo} className="btn-primary">
          Continue
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {error && <ErrorList errors={[error]} />}
      <section aria-labelledby="browser-wallet-title" className="flex flex-col gap-2">
        <h2 id="browser-wallet-title" className="section-title">
          Use your browser wallet
        </h2>
        <p className="muted text-sm">Sign a message with MetaMask or OKX Wallet to prove the wallet is yours. Signing is free.</p>
        <ClientOnly fallback={<p className="text-sm text-slate-300">Binding a browser wallet needs JavaScript.</p>}>
          {() => <BindWalletButton userName={user.userName} redirectTo={redirectTo} />}
        </ClientOnly>
      </section>
      <section aria-labelledby="managed-wallet-title" className="flex flex-col gap-2">
        <h2 id="managed-wallet-title" className="section-title">
          No wallet? Get a managed wallet
        </h2>
        <p className="muted text-sm">
          We create a wallet for your account and keep its key safe for you. You can trade right away, even without JavaScript.
        </p>
        <Form method="post">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" name="intent" value="create-managed" className="btn-secondary">
            Create a managed wallet
          </button>
        </Form>
      </section>
    </div>
  );
}

export default function Login() {
  const data = useLoaderData<typeof loader>();
  const title = data.mode === "register" ? "Create an account" : data.mode === "connect" ? "Bind a wallet" : "Log in";
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="page-title">{title}</h1>
      <div className="card mt-6">
        {/* Above the form: the email field's check on blur grows the form, and would move a button below it mid-click. */}
        {data.mode === "login" && <WalletSignIn redirectTo={data.redirectTo} />}
        {data.mode === "login" && <LoginForm redirectTo={data.redirectTo} />}
        {data.mode === "register" && data.honeypot && (
          <RegisterForm redirectTo={data.redirectTo} referral={data.referral} honeypot={data.honeypot} />
        )}
        {data.mode === "connect" && data.user && <ConnectWallet redirectTo={data.redirectTo} user={data.user} />}
      </div>
    </div>
  );
}
