/**
 * product §4 wallet rules as pure functions, shared by the server and the wallet islands.
 * - `walletMode`: which path an action takes (web or blockchain) and, when neither may run, why.
 * - `preferredWallet`: which of the two browser wallets the stored preference names.
 */
import { sameAddress } from "~core/address";
import { BIND_ADDR_TYPE } from "~core/api/sso";

/** The two browser-wallet extensions product §2 offers: MetaMask is the default, OKX Wallet the alternative. */
export type WalletId = "metamask" | "okx";
export const DEFAULT_WALLET: WalletId = "metamask";
export const ALTERNATIVE_WALLET: WalletId = "okx";
/** localStorage key of the stored preference. */
export const PREFERRED_WALLET_KEY = "preferredWallet";

/** product §4: the stored value names the alternative wallet → that wallet; anything else → the default. */
export function preferredWallet(stored: string | null | undefined): WalletId {
  return stored === ALTERNATIVE_WALLET ? ALTERNATIVE_WALLET : DEFAULT_WALLET;
}

export interface BoundWallet {
  address: string;
  bindAddrType: number;
}

export interface WalletModeInput {
  /** The session holds a token. */
  loggedIn: boolean;
  /** The account's wallet from the user info; null or an empty address when none is bound. */
  bound: BoundWallet | null;
  /** The browser wallet once its account was requested; null when no wallet extension is present. */
  wallet: { account: string; chainId: number } | null;
  /** The chain our contracts live on. */
  expectedChainId: number;
}

/**
 * The outcomes of product §4. `ok` says whether the action may go ahead on `path`; otherwise `message` is
 * the product spec's own word for the reason. The blockchain path is either ok or "Wallet address is inconsistent".
 */
export type WalletMode =
  | { path: "web"; ok: true }
  | { path: "web"; ok: false; message: "no wallet extension" }
  | { path: "none"; ok: false; message: "Wrong chain id" }
  | { path: "none"; ok: false; message: "Please bind wallet" }
  | { path: "blockchain"; ok: false; message: "Wallet address is inconsistent" }
  | { path: "blockchain"; ok: true; account: string };

/** product §4's first rule: a signed-in account with a managed wallet acts through the web path, no extension needed. */
export function usesWebPath(loggedIn: boolean, bound: BoundWallet | null): boolean {
  return loggedIn && bound?.bindAddrType === BIND_ADDR_TYPE.managed && Boolean(bound.address);
}

export function walletMode({ loggedIn, bound, wallet, expectedChainId }: WalletModeInput): WalletMode {
  if (usesWebPath(loggedIn, bound)) return { path: "web", ok: true };
  if (!wallet) return { path: "web", ok: false, message: "no wallet extension" };
  if (wallet.chainId !== expectedChainId) return { path: "none", ok: false, message: "Wrong chain id" };
  if (!loggedIn || !bound?.address) return { path: "none", ok: false, message: "Please bind wallet" };
  if (!sameAddress(wallet.account, bound.address)) return { path: "blockchain", ok: false, message: "Wallet address is inconsistent" };
  return { path: "blockchain", ok: true, account: wallet.account };
}

/** product §2's notice bar: a connected browser wallet that is not the wallet bound to the account. */
export function walletMismatch(bound: BoundWallet | null, connected: string | null): boolean {
  return Boolean(bound?.address && connected) && !sameAddress(bound!.address, connected);
}
