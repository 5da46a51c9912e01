/**
 * An item page's "Game and chain" section, for the wallet that holds the item (issue 14). The route loads this
 * module lazily and only renders it for a holder, so a visitor's page carries none of it (issue 17). A managed
 * wallet posts the move form; a browser wallet's button starts its island (components/deferred-island.tsx). An item that cannot move says why, for either.
 */
import { lazy } from "react";
import { ClientOnly } from "~/components/client-only";
import type { BoundWallet } from "~/domain/wallet-mode";
import type { BridgeItemProps } from "./bridge-item.client";
import { DeferredIsland } from "~/components/deferred-island";
import { Section } from "~/components/page";
import { type ItemMove, MoveItemForm, MoveRefused } from "./move-item-form";

const BridgeItem = lazy(() => import("./bridge-item.client"));

export default function ItemMoveSection({
  move,
  bridgeChain,
  wallet,
  here,
  onConfirmed,
}: {
  move: ItemMove;
  /** Set for a browser wallet: what its island needs to reach the chain. */
  bridgeChain: BridgeItemProps["chain"] | null;
  wallet: BoundWallet | null;
  here: string;
  onConfirmed: () => void;
}) {
  return (
    <Section title="Game and chain" id="move">
      {move.intent === "refused" ? (
        <MoveRefused move={move} />
      ) : bridgeChain && wallet ? (
        <ClientOnly
          fallback={
            <p className="muted text-sm">
              {move.intent === "pending" ? move.note : "Your browser wallet moves this item itself: that needs JavaScript."}
            </p>
          }
        >
          {() => (
            <DeferredIsland
              preview={(start) => <MoveItemForm move={move} start={start ?? null} />}
              island={(started) => (
                <BridgeItem
                  chain={bridgeChain}
                  account={{ loggedIn: true, bound: wallet }}
                  here={here}
                  onConfirmed={onConfirmed}
                  move={move}
                  startOnMount={started}
                />
              )}
            />
          )}
        </ClientOnly>
      ) : (
        <MoveItemForm move={move} />
      )}
    </Section>
  );
}
