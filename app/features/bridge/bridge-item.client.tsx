/**
 * "Move to chain" / "Move into the game" on an item's page from a browser wallet (issue 14): the game signs the
 * claim (/resources/bridge-claim) and the wallet submits it, or the wallet approves the asset manager for the item
 * and swaps it in. Wallet mode first (product §4); each transaction's state on screen; the page is read again after.
 */
import { useRef, useState } from "react";
import { submitClaim, swapItemIntoGame, type BridgeStep } from "./bridge-transactions";
import { requestClaim, type BridgePanelProps } from "./bridge-panel.client";
import { ModeNotice } from "~/features/staking/staking-panel-parts";
import { ActionProgress, type Outcome, type StepState, type StepView } from "~/islands/transaction-parts";
import { useBrowserWallet } from "~/islands/use-browser-wallet";
import { useStartOnMount } from "~/islands/use-start-on-mount";
import { withWallet } from "~/islands/wagmi.client";
import { chainErrorMessage } from "~/islands/chain-errors";

export interface BridgeItemProps extends Omit<BridgePanelProps, "pending"> {
  /** "pending": the item's claim waits for the chain; the island stays to show how the last move ended. */
  move: { intent: "claim-item" | "swap-item" | "pending"; label: string; note: string; nftType: string; tokenId: string };
  /** Loaded by the player's click on the move (components/deferred-island.tsx): carry it out as it mounts. */
  startOnMount?: boolean;
}

const MESSAGES = {
  managed: "Your account uses a managed wallet: reload the page to use its form.",
  noExtension: "No wallet extension: install MetaMask or OKX Wallet to move this item from your browser.",
};
const STEP_TEXT: Record<BridgeStep, string> = {
  approve: "Approve the item for the game",
  claim: "Claim the item",
  swap: "Move the item into the game",
};

function Mover({ chain, account, here, onConfirmed, move, startOnMount }: BridgeItemProps) {
  const wallet = useBrowserWallet({ chainId: chain.chainId, account, messages: MESSAGES });
  const [steps, setSteps] = useState<StepView<BridgeStep>[]>([]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const inFlight = useRef(false);
  const busy = outcome?.status === "running";
  const report = (step: BridgeStep, state: StepState) =>
    setSteps((previous) => [...previous.filter((view) => view.step !== step), { step, state }]);

  async function go() {
    if (inFlight.current) return;
    inFlight.current = true;
    setSteps([]);
    setOutcome({ status: "running", text: "Checking your wallet…" });
    try {
      const clients = await wallet.clientsFor(
        await wallet.requireWallet(() => setOutcome({ status: "running", text: "Connect your wallet…" })),
      );
      if (move.intent === "pending") return;
      if (move.intent === "claim-item") {
        const claim = await requestClaim({ intent: "claim-item", nftType: move.nftType, tokenId: move.tokenId });
        await submitClaim(clients, chain.contracts, claim, report);
        setOutcome({ status: "confirmed", text: `Item #${move.tokenId} is in your wallet.` });
      } else {
        await swapItemIntoGame(clients, chain.contracts, BigInt(move.tokenId), report);
        setOutcome({
          status: "confirmed",
          text: `Item #${move.tokenId} is on its way into the game: it can be traded once the chain has recorded it.`,
        });
      }
      onConfirmed();
    } catch (error) {
      setSteps((previous) => previous.map((view) => (view.state === "confirmed" ? view : { ...view, state: "failed" })));
      setOutcome({ status: "failed", text: chainErrorMessage(error) });
    } finally {
      inFlight.current = false;
    }
  }

  useStartOnMount(startOnMount, () => void go());

  return (
    <div className="flex flex-col gap-3">
      {wallet.mode && (
        <ModeNotice
          mode={wallet.mode}
          account={account}
          here={here}
          chainId={chain.chainId}
          onSwitch={() => void wallet.switchNetwork()}
          busy={busy}
        />
      )}
      {move.intent === "pending" ? (
        <p className="text-sm" data-testid="move-pending">
          <strong className="text-white">{move.label}.</strong> {move.note}
        </p>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn-secondary" onClick={() => void go()} disabled={busy || wallet.blocked}>
            {busy ? "Please wait…" : move.label}
          </button>
          <p className="muted text-sm">{move.note}</p>
        </div>
      )}
      <ActionProgress steps={steps} outcome={outcome} title={(step) => STEP_TEXT[step]} />
    </div>
  );
}

export default withWallet(Mover);
