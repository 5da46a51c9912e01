/**
 * "Sign in with a wallet" beside the email login (decision 0019). Its button shows once the browser shows a wallet
 * extension, so never without JavaScript nor without a wallet (a line says what it needs then); the wallet code loads
 * on the click.
 */
import { useActionData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import { onWalletExtension } from "~/islands/wallet-store";

/** Said where the button cannot be: the wallet sign-in exists, and what it needs. */
export const WALLET_SIGN_IN_NEEDS =
  "A wallet bound to your account can sign you in too: that needs JavaScript and the MetaMask or OKX Wallet extension in this browser.";

/** The login action's intent for a signed message (wallet-sign-in.server.ts). */
export const WALLET_SIGN_IN_INTENT = "wallet-sign-in";

export function WalletSignIn({ redirectTo }: { redirectTo: string }) {
  const [offered, setOffered] = useState(false);
  const [signing, setSigning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = useSubmit();
  const navigation = useNavigation();
  const actionData = useActionData<{ error?: string }>();
  useEffect(() => onWalletExtension(() => setOffered(true)), []);

  const posting = navigation.state !== "idle" && navigation.formData?.get("intent") === WALLET_SIGN_IN_INTENT;
  const busy = signing || posting;
  // The action's refusal belongs here only when this button made the post, not the email form.
  const error = problem ?? (actionData && "error" in actionData && !busy ? actionData.error : null);
  // Without an extension (or without JavaScript) the way exists all the same: say what it needs.
  if (!offered && !error)
    return (
      <p className="muted mb-6 border-b border-white/10 pb-6 text-sm" data-testid="wallet-sign-in-needs">
        {WALLET_SIGN_IN_NEEDS}
      </p>
    );

  async function start() {
    setProblem(null);
    setSigning(true);
    try {
      const { signInWithWallet } = await import("~/islands/wallet-sign-in.client");
      const signed = await signInWithWallet();
      if ("problem" in signed) return setProblem(signed.problem);
      submit({ intent: WALLET_SIGN_IN_INTENT, ...signed.ok, redirectTo }, { method: "post" });
    } catch {
      setProblem("The wallet sign-in could not be loaded. Please reload the page and try again.");
    } finally {
      setSigning(false);
    }
  }

  return (
    <div className="mb-6 flex flex-col gap-2 border-b border-white/10 pb-6">
      {offered && (
        <>
          <p className="muted text-sm">
            Your wallet is bound to your account? Sign a message with it, or log in with your email below. Signing is free.
          </p>
          <button
            type="button"
            className="btn-secondary"
            onClick={start}
            disabled={busy}
            aria-describedby={error ? "wallet-sign-in-error" : undefined}
          >
            {busy ? "Waiting for your wallet…" : "Sign in with a wallet"}
          </button>
        </>
      )}
      {error && (
        <p id="wallet-sign-in-error" role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
