/**
 * "Move to chain" / "Move into the game" on an item's page from a browser wallet (issue 14): the game signs the
 * claim (/resources/bridge-claim) and the wallet submits it, or the wallet approves the asset manager for the item
 * and swaps it in. A material stack moves whole or in part: an amount field, all of it to start with, checked before
 * anything is asked of the wallet (a chain stack is swapped in with swapItem1155ToGame). Wallet mode first (product
 * §4); each transaction's state on screen; the page is read again after.
 */
import { useId, useState } from "react";
import { chainStackOf, moveAmount, moveAmountMessage, stackText } from "~core/item-moves";
import { parseUint256 } from "~core/money";
import { ErrorList } from "~/components/error-list";
import { submitClaim, swapItemIntoGame, swapStackIntoGame, type BridgeStep } from "./bridge-transactions";
import { requestClaim, type BridgePanelProps } from "./bridge-panel.client";
import { walletMessages, WalletModeNotice } from "~/islands/wallet-mode-notice";
import { ActionProgress } from "~/islands/transaction-parts";
import { useTransactionRun } from "~/islands/use-transaction-run";
import { useBrowserWallet } from "~/islands/use-browser-wallet";
import { useStartOnMount } from "~/islands/use-start-on-mount";
import { withWallet } from "~/islands/wagmi.client";

export interface BridgeItemProps extends Omit<BridgePanelProps, "pending"> {
  /** "pending": the item's claim waits for the chain; the island stays to show how the last move ended. */
  move: {
    intent: "claim-item" | "swap-item" | "pending";
    label: string;
    note: string;
    nftType: string;
    tokenId: string;
    /** A stack's size, decimal (a uint256): it moves whole or in part. */
    amount?: string;
  };
  /** Loaded by the player's click on the move (components/deferred-island.tsx): carry it out as it mounts. */
  startOnMount?: boolean;
}

/** What this island's wallet actions do, as its notices say it. */
const PURPOSE = "move this item";

const MESSAGES = walletMessages(PURPOSE, "use its form");
const STEP_TEXT: Record<BridgeStep, string> = {
  approve: "Approve the item for the game",
  claim: "Claim the item",
  swap: "Move the item into the game",
};

function Mover({ chain, account, here, onConfirmed, move, startOnMount }: BridgeItemProps) {
  const wallet = useBrowserWallet({ chainId: chain.chainId, account, messages: MESSAGES });
  const { steps, outcome, busy, report, clientsOf, run } = useTransactionRun<BridgeStep>();
  const [typed, setTyped] = useState(move.amount ?? "");
  const [amountError, setAmountError] = useState<string | null>(null);
  const amountId = useId();
  const stack = chainStackOf(move.tokenId);

  async function go() {
    // A move still on its way has nothing to sign.
    if (busy || move.intent === "pending") return;
    // A stack's amount is checked before the wallet is asked for anything.
    const held = move.amount === undefined ? undefined : BigInt(move.amount);
    const amount = held === undefined ? undefined : moveAmount(parseUint256(typed.trim()) ?? 0n, held);
    if (amount === null) {
      setAmountError(moveAmountMessage(held!));
      return;
    }
    setAmountError(null);
    const ended = await run(async () => {
      const clients = await clientsOf(wallet);
      if (move.intent === "claim-item") {
        const fields = { intent: "claim-item", nftType: move.nftType, tokenId: move.tokenId };
        const claim = await requestClaim(amount === undefined ? fields : { ...fields, amount: String(amount) });
        await submitClaim(clients, chain.contracts, claim, report);
        return amount === undefined ? `Item #${move.tokenId} is in your wallet.` : `The ${amount} you moved are in your wallet.`;
      }
      if (stack && amount !== undefined) {
        await swapStackIntoGame(clients, chain.contracts, { id: stack.id, amount }, report);
        return `${stackText(stack.id, amount)} are on their way into the game: they join your stack once the chain has recorded the move.`;
      }
      await swapItemIntoGame(clients, chain.contracts, BigInt(move.tokenId), report);
      return `Item #${move.tokenId} is on its way into the game: it can be traded once the chain has recorded it.`;
    });
    if (ended === "done") onConfirmed();
  }

  // A stack's move waits for its amount: the click that loaded the island does not move all of it.
  useStartOnMount(startOnMount && move.amount === undefined, () => void go());

  return (
    <div className="flex flex-col gap-3">
      <WalletModeNotice purpose={PURPOSE} wallet={wallet} here={here} busy={busy} />
      {move.intent === "pending" ? (
        <p className="text-sm" data-testid="move-pending">
          <strong className="text-white">{move.label}.</strong> {move.note}
        </p>
      ) : (
        <div className="flex flex-wrap items-end gap-3">
          {move.amount !== undefined && (
            <div className="flex flex-col gap-1">
              <label htmlFor={amountId} className="text-sm font-medium">
                Amount <span className="muted">(you hold {move.amount})</span>
              </label>
              <input
                id={amountId}
                type="number"
                inputMode="numeric"
                min={1}
                max={move.amount}
                step={1}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                aria-invalid={amountError ? true : undefined}
                aria-describedby={amountError ? `${amountId}-errors` : undefined}
                className="field-input w-32"
              />
              <ErrorList id={`${amountId}-errors`} errors={amountError ? [amountError] : undefined} />
            </div>
          )}
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
