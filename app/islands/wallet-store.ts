/**
 * The connected wallet address, shared between the header (always loaded) and the wallet islands (lazy).
 * Deliberately tiny and wagmi-free: the header imports it on every page.
 */
import { useSyncExternalStore } from "react";

let current: string | null = null;
const listeners = new Set<() => void>();

export function setConnectedAddress(address: string | null) {
  if (address === current) return;
  current = address;
  for (const listener of listeners) listener();
}

export function getConnectedAddress(): string | null {
  return current;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The connected address, or null (always null on the server and before the watcher has looked). */
export function useConnectedAddress(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
