/**
 * A loot box page's browser-wallet actions before any wallet code has loaded (issue 17): one "Connect wallet"
 * button, whose click loads the island (wagmi, viem) and connects, so a visitor who only looks downloads none of
 * it. A wallet this site connected before loads the island at once, since its address, wallet mode and buy form
 * belong on the page from the start.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import type { LootboxPanelProps } from "~/islands/lootbox-panel.client";
import type { WalletConnectedKey } from "~/islands/eip1193";
import { hasInjectedWallet } from "~/islands/wallet-store";

const LootboxPanel = lazy(() => import("~/islands/lootbox-panel.client"));

/** eip1193.ts's "connected" flag, read by its typed key without loading that module onto every box page. */
const CONNECTED_KEY: WalletConnectedKey = "walletConnected";

function ConnectFirst({ title, loading, onConnect }: { title: string; loading: boolean; onConnect?: () => void }) {
  return (
    <div className="flex flex-col items-start gap-3">
      <p className="text-sm">Buy and open {title}es with a browser wallet (MetaMask or OKX Wallet): connect it to start.</p>
      <button type="button" className="btn-primary" onClick={onConnect} disabled={loading}>
        Connect wallet
      </button>
      {loading && <p role="status">Loading the wallet tools…</p>}
    </div>
  );
}

export function LootboxWalletActions(props: Omit<LootboxPanelProps, "connectOnMount">) {
  const [connectClicked, setConnectClicked] = useState(false);
  const [connectedBefore, setConnectedBefore] = useState(false);
  useEffect(() => setConnectedBefore(hasInjectedWallet() && window.localStorage.getItem(CONNECTED_KEY) === "1"), []);

  if (!connectClicked && !connectedBefore)
    return <ConnectFirst title={props.title} loading={false} onConnect={() => setConnectClicked(true)} />;
  return (
    <Suspense fallback={<ConnectFirst title={props.title} loading />}>
      <LootboxPanel {...props} connectOnMount={connectClicked} />
    </Suspense>
  );
}
