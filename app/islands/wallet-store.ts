/**
 * The connected wallet, shared between the header (always loaded) and the wallet islands (lazy).
 * Deliberately tiny and dependency-free: the header imports it on every page. The short form the header shows
 * is made by the islands (connected-address.ts), which load core/address anyway: the header importing it would
 * give it a chunk of its own on every page.
 */
import { useSyncExternalStore } from "react";

export interface ConnectedWallet {
  address: string;
  short: string;
}

let current: ConnectedWallet | null = null;
const listeners = new Set<() => void>();

export function setConnectedWallet(wallet: ConnectedWallet | null) {
  if (wallet?.address === current?.address) return;
  current = wallet;
  for (const listener of listeners) listener();
}

export function getConnectedWallet(): ConnectedWallet | null {
  return current;
}

export function getConnectedAddress(): string | null {
  return current?.address ?? null;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The connected wallet, or null (always null on the server and before the watcher has looked). */
export function useConnectedWallet(): ConnectedWallet | null {
  return useSyncExternalStore(subscribe, getConnectedWallet, () => null);
}

/** The connected address, or null (always null on the server and before the watcher has looked). */
export function useConnectedAddress(): string | null {
  return useSyncExternalStore(subscribe, getConnectedAddress, () => null);
}

const ANNOUNCE = "eip6963:announceProvider";

/**
 * Whether the browser has a wallet extension now: MetaMask's or OKX Wallet's injected global, or a wallet that
 * answers an EIP-6963 request (wallets answer synchronously) without injecting one.
 */
export function hasInjectedWallet(): boolean {
  if ("ethereum" in window || "okxwallet" in window) return true;
  let announced = false;
  const listener = () => (announced = true);
  window.addEventListener(ANNOUNCE, listener);
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  window.removeEventListener(ANNOUNCE, listener);
  return announced;
}

/**
 * Calls `found` once the browser shows a wallet extension: now (hasInjectedWallet), or when one that loads after the
 * page announces itself, as EIP-6963 wallets do on load. Without one there is no wallet to watch, and root mounts
 * no watcher. Returns the cleanup.
 */
export function onWalletExtension(found: () => void): () => void {
  if (hasInjectedWallet()) {
    found();
    return () => {};
  }
  const listener = () => {
    window.removeEventListener(ANNOUNCE, listener);
    found();
  };
  window.addEventListener(ANNOUNCE, listener);
  return () => window.removeEventListener(ANNOUNCE, listener);
}
