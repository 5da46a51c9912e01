/**
 * "Sign with browser wallet" on the bind page: the button is the page's own, and the wallet code (the bind message,
 * the provider) loads on its click, not on render (issue 42).
 */
import { useFetcher } from "@remix-run/react";
import { useState } from "react";

export function BindWalletButton({ userName, redirectTo }: { userName: string; redirectTo: string }) {
  const fetcher = useFetcher<{ error?: string }>();
  const [problem, setProblem] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);
  const busy = signing || fetcher.state !== "idle";

  async function bind() {
    setProblem(null);
    setSigning(true);
    try {
      const { signBindMessage } = await import("~/islands/bind-wallet.client");
      const signed = await signBindMessage(userName);
      if ("problem" in signed) return setProblem(signed.problem);
      fetcher.submit({ intent: "bind-wallet", ...signed.ok, redirectTo }, { method: "post" });
    } catch {
      setProblem("The wallet binding could not be loaded. Please reload the page and try again.");
    } finally {
      setSigning(false);
    }
  }

  const error = problem ?? fetcher.data?.error ?? null;
  return (
    <div className="flex flex-col gap-2">
      <button type="button" className="btn-primary" onClick={bind} disabled={busy}>
        {busy ? "Waiting for your wallet…" : "Sign with browser wallet"}
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
