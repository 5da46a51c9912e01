/**
 * Browser-wallet plumbing without wagmi, small enough for the always-loaded wallet watcher: EIP-6963
 * discovery, product §4's preferred wallet, the app's "connected" flag and the install request of product §8.
 * Browser only: call these from effects and event handlers.
 */
import { PREFERRED_WALLET_KEY, preferredWallet, type WalletId } from "~/domain/wallet-mode";

/** The minimal EIP-1193 surface the islands use. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): void;
  removeListener?(event: string, listener: (...args: unknown[]) => void): void;
  isMetaMask?: boolean;
  isOkxWallet?: boolean;
}

interface Eip6963Detail {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193Provider;
}

type WalletWindow = Window & { ethereum?: Eip1193Provider; okxwallet?: Eip1193Provider };

/** The two extensions: their EIP-6963 id, where older versions inject themselves, and where to get them. */
export const BROWSER_WALLETS: Record<
  WalletId,
  { name: string; rdns: string; installUrl: string; legacy: (w: WalletWindow) => Eip1193Provider | undefined }
> = {
  metamask: {
    name: "MetaMask",
    rdns: "io.metamask",
    installUrl: "https://metamask.io/download/",
    legacy: (w) => (w.ethereum?.isMetaMask && !w.ethereum.isOkxWallet ? w.ethereum : undefined),
  },
  okx: {
    name: "OKX Wallet",
    rdns: "com.okex.wallet",
    installUrl: "https://www.okx.com/web3",
    legacy: (w) => w.okxwallet,
  },
};

const announced = new Map<string, Eip1193Provider>();
let listening = false;

/** EIP-6963: wallets announce themselves in answer to a request event, synchronously in practice. */
function discover() {
  if (!listening) {
    listening = true;
    window.addEventListener("eip6963:announceProvider", (event) => {
      const detail = (event as CustomEvent<Eip6963Detail>).detail;
      if (detail?.info?.rdns && detail.provider) announced.set(detail.info.rdns, detail.provider);
    });
  }
  window.dispatchEvent(new Event("eip6963:requestProvider"));
}

/** The extension's provider: its EIP-6963 announcement, else the global older versions inject. */
export function walletProvider(id: WalletId): Eip1193Provider | undefined {
  discover();
  const wallet = BROWSER_WALLETS[id];
  return announced.get(wallet.rdns) ?? wallet.legacy(window as WalletWindow);
}

export function storedPreference(): WalletId {
  return preferredWallet(window.localStorage.getItem(PREFERRED_WALLET_KEY));
}

export function rememberPreference(id: WalletId) {
  window.localStorage.setItem(PREFERRED_WALLET_KEY, id);
}

/**
 * product §4: the preferred wallet's provider; the default one (any injected wallet) otherwise, or the other
 * extension when it announces itself through EIP-6963 only.
 */
export function injectedProvider(): Eip1193Provider | undefined {
  return (
    walletProvider(storedPreference()) ??
    (window as WalletWindow).ethereum ??
    (Object.keys(BROWSER_WALLETS) as WalletId[]).map(walletProvider).find(Boolean)
  );
}

/**
 * Whether the user connected a wallet to this site and has not logged it out. Extensions keep a site
 * authorised after our "log out", so this flag, not eth_accounts alone, says whether we show an address.
 */
const CONNECTED_KEY = "walletConnected";
/** For pages that read the flag without loading this module (components/deferred-island.tsx). */
export type WalletConnectedKey = typeof CONNECTED_KEY;
export function isWalletConnected(): boolean {
  return window.localStorage.getItem(CONNECTED_KEY) === "1";
}
export function setWalletConnected(connected: boolean) {
  if (connected) window.localStorage.setItem(CONNECTED_KEY, "1");
  else window.localStorage.removeItem(CONNECTED_KEY);
}

/** Shows product §8's install dialog, loading it first (install-dialog.client.tsx). */
export function requestWalletInstall() {
  void import("./install-dialog.client").then((dialog) => dialog.showInstallDialog());
}

/** Wallet errors in plain words: a rejection is the user's choice, not a failure. */
export function walletErrorMessage(error: unknown): string {
  const code = (error as { code?: number })?.code ?? (error as { cause?: { code?: number } })?.cause?.code;
  if (code === 4001) return "You cancelled the request in your wallet.";
  const message = (error as { shortMessage?: string; message?: string })?.shortMessage ?? (error as { message?: string })?.message;
  return message ? `Your wallet refused: ${message}` : "Your wallet refused the request.";
}
