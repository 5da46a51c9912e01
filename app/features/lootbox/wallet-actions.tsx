/**
 * A loot box page's browser-wallet actions before any wallet code has loaded (issue 17): one "Connect wallet"
 * button, whose click loads the island (wagmi, viem) and connects (components/deferred-island.tsx).
 */
import { lazy } from "react";
import type { LootboxPanelProps } from "./lootbox-panel.client";
import { DeferredIsland } from "~/components/deferred-island";

const LootboxPanel = lazy(() => import("./lootbox-panel.client"));

export function LootboxWalletActions(props: Omit<LootboxPanelProps, "connectOnMount">) {
  return (
    <DeferredIsland
      preview={(start) => (
        <div className="flex flex-col items-start gap-3">
          <p className="text-sm">Buy and open {props.title}es with a browser wallet (MetaMask or OKX Wallet): connect it to start.</p>
          <button type="button" className="btn-primary" onClick={start} disabled={!start}>
            Connect wallet
          </button>
          {!start && <p role="status">Loading the wallet tools…</p>}
        </div>
      )}
      island={(started) => <LootboxPanel {...props} connectOnMount={started} />}
    />
  );
}
