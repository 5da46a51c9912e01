/**
 * A wallet island that loads when its wallet action starts (issue 17): until then the page shows `preview`, plain
 * markup whose button calls `start`, so a page a visitor only looks at downloads no wallet code. The island then
 * mounts told that a click started it, to carry that action out at once. A wallet this site connected before loads
 * the island straight away, since its address and wallet mode belong on the page from the start.
 */
import { Suspense, useEffect, useState, type ReactNode } from "react";
import type { WalletConnectedKey } from "~/islands/eip1193";
import { hasInjectedWallet } from "~/islands/wallet-store";

/** eip1193.ts's "connected" flag, read by its typed key without loading that module onto the page. */
const CONNECTED_KEY: WalletConnectedKey = "walletConnected";

export function DeferredIsland({
  preview,
  island,
}: {
  /** `start` is undefined while the island loads: the preview then shows its button disabled. */
  preview: (start: (() => void) | undefined) => ReactNode;
  /** A lazy island element; `started` is true when the player's click loaded it. */
  island: (started: boolean) => ReactNode;
}) {
  const [started, setStarted] = useState(false);
  const [connectedBefore, setConnectedBefore] = useState(false);
  useEffect(() => setConnectedBefore(hasInjectedWallet() && window.localStorage.getItem(CONNECTED_KEY) === "1"), []);

  if (!started && !connectedBefore) return <>{preview(() => setStarted(true))}</>;
  return <Suspense fallback={preview(undefined)}>{island(started)}</Suspense>;
}
