/**
 * Mounted by root in the #notice-bar slot of every page in a browser with a wallet extension, and small because of
 * it (no wagmi, no viem): shows the connected address in the header, toasts "Network switch" / "accounts switch" and
 * reloads on a wallet change (product §4, §8), and shows the notice bar when the connected wallet is not the bound
 * one (product §2). Product §8's install dialog, for a browser without one, is install-dialog.client.tsx.
 */
import { useEffect } from "react";
import { sameAddress } from "~core/address";
import { walletMismatch, type BoundWallet } from "~/domain/wallet-mode";
import { injectedProvider, isWalletConnected } from "./eip1193";
import { setConnectedAddress } from "./connected-address";
import { getConnectedAddress, useConnectedAddress } from "./wallet-store";

export const MISMATCH_TEXT =
  "The wallet address of the current metamask connection is inconsistent with the wallet address that bound to your account.";

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
    </>
  );
}
