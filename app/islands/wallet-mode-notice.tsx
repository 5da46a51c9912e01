/**
 * What a failed wallet-mode check (app/domain/wallet-mode.ts) means for a wallet island, in the product's words
 * first. Loaded with the islands only.
 */
import { shortAddress } from "~core/address";
import { loginHref } from "~/domain/login-href";
import type { BoundWallet, WalletMode } from "~/domain/wallet-mode";

/** The missing extension, for an island whose wallet action is `purpose` ("stake FIRE"). */
export const noExtensionMessage = (purpose: string) =>
  `No wallet extension: install MetaMask or OKX Wallet to ${purpose} from your browser.`;

/**
 * What useBrowserWallet says for an island whose wallet action is `purpose`: the missing extension, and a managed
 * wallet's account, sent to the page's server forms (`managedWay`: "use its form" where there is one).
 */
export const walletMessages = (purpose: string, managedWay = "use its forms") => ({
  managed: `Your account uses a managed wallet: reload the page to ${managedWay}.`,
  noExtension: noExtensionMessage(purpose),
});

/** The island's wallet as the notice needs it: useBrowserWallet's answer, or the loot box island's own. */
export interface NoticeWallet {
  mode: WalletMode | null;
  chainId: number;
  account: { loggedIn: boolean; bound: BoundWallet | null };
  switchNetwork: () => unknown;
}

/** The notice for an island whose wallet action is `purpose`; "Bind now" and "log in" come back to `here`. */
export function WalletModeNotice({
  purpose,
  wallet,
  here,
  busy,
  onSwitch = wallet.switchNetwork,
}: {
  purpose: string;
  wallet: NoticeWallet;
  here: string;
  busy: boolean;
  /** Instead of the wallet's own switch, for an island that reports the switch's progress. */
  onSwitch?: () => unknown;
}) {
  const { mode, account } = wallet;
  if (!mode || mode.ok) return null;
  switch (mode.message) {
    case "no wallet extension":
      return <p className="text-sm text-amber-200">{noExtensionMessage(purpose)}</p>;
    case "Wrong chain id":
      return (
        <div className="flex flex-wrap items-center gap-3 text-sm text-amber-200">
          <p>Wrong chain id: switch your wallet to chain {wallet.chainId}.</p>
          <button type="button" className="btn-secondary" onClick={() => void onSwitch()} disabled={busy}>
            Switch network
          </button>
        </div>
      );
    case "Please bind wallet":
      return account.loggedIn ? (
        <p className="text-sm text-amber-200">
          Please bind wallet: you {purpose} from the wallet bound to your account.{" "}
          <a href={`/login?act=connect&redirect=${encodeURIComponent(here)}`}>Bind now</a>
        </p>
      ) : (
        <p className="text-sm text-amber-200">
          Please bind wallet: <a href={loginHref(here)}>log in</a> with an account that has this browser wallet bound to {purpose}.
        </p>
      );
    case "Wallet address is inconsistent":
      return (
        <p className="text-sm text-amber-200">
          Wallet address is inconsistent: your account is bound to {shortAddress(account.bound?.address ?? "")}. Switch to that account in
          your wallet.
        </p>
      );
  }
}
