/**
 * Mounted by root in the #notice-bar slot on every page, and small because of it (no wagmi, no viem): shows the
 * connected address in the header, toasts "Network switch" / "accounts switch" and reloads on a wallet change
 * (product §4, §8), shows the notice bar when the connected wallet is not the bound one (product §2), and product §8's
 * install dialog when an action needs a wallet and none is present.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { sameAddress } from "~core/address";
import { walletMismatch, type BoundWallet } from "~/domain/wallet-mode";
import { BROWSER_WALLETS, injectedProvider, isWalletConnected, WALLET_MISSING_EVENT } from "./eip1193";
import { setConnectedAddress } from "./connected-address";
import { getConnectedAddress, useConnectedAddress } from "./wallet-store";

export const MISMATCH_TEXT =
  "The wallet address of the current metamask connection is inconsistent with the wallet address that bound to your account.";

/** product §8's "Tips" dialog. A modal <dialog> sits in the top layer, above the sticky header, and handles Escape. */
function InstallDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    dialog.showModal();
    dialog.querySelector("button")?.focus();
    return () => dialog.close();
  }, []);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="install-dialog-title"
      aria-describedby="install-dialog-text"
      className="card w-full max-w-sm text-slate-100 backdrop:bg-black/60"
    >
      <h2 id="install-dialog-title" className="section-title">
        Tips
      </h2>
      <p id="install-dialog-text" className="mt-2 text-slate-200">
        Please install the wallet plugin (MetaMask or OKX Wallet) to continue, then reload this page.
      </p>
      <ul className="mt-3 flex flex-col gap-1">
        {Object.values(BROWSER_WALLETS).map((wallet) => (
          <li key={wallet.rdns}>
            <a href={wallet.installUrl} target="_blank" rel="noopener noreferrer">
              Install {wallet.name}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
      <form method="dialog" className="mt-4 flex justify-end">
        <button type="submit" className="btn-primary">
          Close
        </button>
      </form>
    </dialog>
  );
}

export interface WalletWatcherProps {
  bound: BoundWallet | null;
  /**
   * Shows product §8's toast, after which the page reloads. Passed in rather than imported, as is everything root
   * already has: an island importing root's modules splits them into extra chunks that every page then loads.
   */
  toastThenReload: (message: string) => void;
}

export default function WalletWatcher({ bound, toastThenReload }: WalletWatcherProps) {
  const connected = useConnectedAddress();
  const [installAsked, setInstallAsked] = useState(false);
  const closeInstall = useCallback(() => setInstallAsked(false), []);

  useEffect(() => {
    const onMissing = () => setInstallAsked(true);
    window.addEventListener(WALLET_MISSING_EVENT, onMissing);
    return () => window.removeEventListener(WALLET_MISSING_EVENT, onMissing);
  }, []);

  useEffect(() => {
    const provider = injectedProvider();
    if (!provider) return;
    // eth_accounts never prompts: it only reports an account the user already let this site see.
    if (isWalletConnected()) {
      provider
        .request({ method: "eth_accounts" })
        .then((accounts) => setConnectedAddress((accounts as string[])[0] ?? null))
        .catch(() => undefined);
    }
    const onAccounts = (...args: unknown[]) => {
      const next = (args[0] as string[] | undefined)?.[0] ?? null;
      if (!isWalletConnected() || sameAddress(next, getConnectedAddress())) return;
      setConnectedAddress(next);
      // An empty list is a disconnect from the wallet's side: nothing on the page depends on it any more.
      if (next) toastThenReload("accounts switch");
    };
    const onChain = () => {
      if (isWalletConnected()) toastThenReload("Network switch");
    };
    provider.on?.("accountsChanged", onAccounts);
    provider.on?.("chainChanged", onChain);
    return () => {
      provider.removeListener?.("accountsChanged", onAccounts);
      provider.removeListener?.("chainChanged", onChain);
    };
  }, [toastThenReload]);

  return (
    <>
      {walletMismatch(bound, connected) && (
        <p role="alert" className="border-b border-amber-400 bg-amber-950 px-4 py-2 text-center text-sm text-amber-100">
          {MISMATCH_TEXT}
        </p>
      )}
      {installAsked && <InstallDialog onClose={closeInstall} />}
    </>
  );
}
