import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { ClientOnly } from "remix-utils/client-only";
import type { HoneypotInputProps } from "remix-utils/honeypot/server";
import { HoneypotFields } from "~/components/honeypot-fields";
import { ErrorList, Field, FormNotice } from "~/components/forms";
import { LoginSchema, RegisterSchema } from "~/domain/auth-schemas";
import { safeRedirect } from "~/domain/safe-redirect";
import { backendProblem, getAuth, publicApis, signedInApis } from "~/services/apis.server";
import { authenticator, bindSignatureProblem, createUserSession, updateUserInfo } from "~/services/auth.server";
import { checkHoneypot, getHoneypot } from "~/services/honeypot.server";
import { makeToast, pageUser } from "~/services/session.server";

const BindWalletButton = lazy(() => import("~/islands/bind-wallet.client"));

type Mode = "login" | "register" | "connect";

export async function loader({ request }: LoaderFunctionArgs) {
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

type Reply = SubmissionResult<string[]>;
/** Every answer of the action: a form's Conform reply (with a notice once a code is sent), or binding's error. */
type LoginActionData = { result: Reply; notice: string | null } | { result: null; notice: null; error: string };
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

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const formData = await request.clone().formData();
  const act = url.searchParams.get("act");
  if (act === "connect") return connectAction(request, formData);
  if (act === "reg") return registerAction(request, formData);
  return loginAction(request, formData);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.mode === "register" ? "Create an account" : data?.mode === "connect" ? "Bind a wallet" : "Log in"} | Spark Era` },
];

function withRedirect(path: string, redirectTo: string) {
  return `${path}${path.includes("?") ? "&" : "?"}redirect=${encodeURIComponent(redirectTo)}`;
}

function LoginForm({ redirectTo }: { redirectTo: string }) {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field label="Email" field={fields.email} type="email" inputProps={{ autoComplete: "username", autoFocus: true }} />
      <Field label="Password" field={fields.password} type="password" inputProps={{ autoComplete: "current-password" }} />
      <ErrorList id={form.errorId} errors={form.errors} />
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
  const [form, fields] = useForm({
    id: "register",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: { referral },
    constraint: getZodConstraint(RegisterSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
  });
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <HoneypotFields honeypot={honeypot} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field
        label="Email"
        field={fields.email}
        type="email"
        inputProps={{ autoComplete: "email", autoFocus: true }}
        after={
          <button type="submit" name="intent" value="send-code" className="btn-secondary shrink-0" disabled={busyIntent === "send-code"}>
            {busyIntent === "send-code" ? "Sending…" : "Send code"}
          </button>
        }
      />
      {notice && <FormNotice>{notice}</FormNotice>}
      <Field label="Verification code" field={fields.code} inputProps={{ inputMode: "numeric", autoComplete: "one-time-code" }} />
      <Field
        label="Password"
        field={fields.password}
        type="password"
        hint="6 to 18 characters, with at least two of letters, digits and symbols, and no spaces."
        inputProps={{ autoComplete: "new-password" }}
      />
      <Field label="Referral code (optional)" field={fields.referral} />
      <ErrorList id={form.errorId} errors={form.errors} />
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
          {() => (
            <Suspense fallback={<p className="text-sm text-slate-300">Loading…</p>}>
              <BindWalletButton userName={user.userName} redirectTo={redirectTo} />
            </Suspense>
          )}
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
        {data.mode === "login" && <LoginForm redirectTo={data.redirectTo} />}
        {data.mode === "register" && data.honeypot && (
          <RegisterForm redirectTo={data.redirectTo} referral={data.referral} honeypot={data.honeypot} />
        )}
        {data.mode === "connect" && data.user && <ConnectWallet redirectTo={data.redirectTo} user={data.user} />}
      </div>
    </div>
  );
}
