import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { bindWalletMessage } from "~core/bind-message";
import { injectedProvider, walletErrorMessage } from "./eip1193";

const INSTALL_MESSAGE = "Please install the MetaMask or OKX Wallet plugin to continue.";

/** Asks the browser wallet to sign the bind message, then posts it to the act=connect action. */
export default function BindWalletButton({ userName, redirectTo }: { userName: string; redirectTo: string }) {
  const fetcher = useFetcher<{ error?: string }>();
  const [problem, setProblem] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);
  const busy = signing || fetcher.state !== "idle";

  async function bind() {
    setProblem(null);
    const provider = injectedProvider();
    if (!provider) return setProblem(INSTALL_MESSAGE);
    setSigning(true);
    try {
      const [address] = (await provider.request({ method: "eth_requestAccounts" })) as string[];
      const issuedAt = new Date().toISOString();
      const message = bindWalletMessage({ userName, address, issuedAt });
      const signature = (await provider.request({ method: "personal_sign", params: [message, address] })) as string;
      fetcher.submit({ intent: "bind-wallet", address, signature, issuedAt, redirectTo }, { method: "post" });
    } catch (error) {
      setProblem(walletErrorMessage(error));
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
