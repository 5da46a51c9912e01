/**
 * Game and chain from a browser wallet (issue 14), on /game: claim FIRE or QUARK to the chain (the game signs a
 * claim through /resources/bridge-claim, the wallet submits it) and move them into the game (approve exactly, then
 * swap). Wallet mode first (product §4), one sequence at a time, each transaction's state on screen; the page's
 * data is read again after each, and the game credits a move once the chain has recorded it.
 */
import { useId, useState, type FormEvent } from "react";
import { formatPrice, parseTokenAmount } from "~core/money";
import type { BoundWallet } from "~/domain/wallet-mode";
import { submitClaim, swapTokenIntoGame, type BridgeContracts, type BridgeStep, type ClaimWire } from "./bridge-transactions";
import { walletMessages, WalletModeNotice } from "~/islands/wallet-mode-notice";
import { ActionProgress } from "~/islands/transaction-parts";
import { useTransactionRun } from "~/islands/use-transaction-run";
import { useBrowserWallet } from "~/islands/use-browser-wallet";
import { withWallet } from "~/islands/wagmi.client";
import { ShownError } from "~/islands/chain-errors";

export interface BridgePanelProps {
  chain: { chainId: number; rpcUrl: string; contracts: BridgeContracts };
  account: { loggedIn: boolean; bound: BoundWallet | null };
  here: string;
  onConfirmed: () => void;
  /** The account's claims still payable on chain (their wallet turned them down, or a tab was closed). */
  pending: readonly { txId: string; what: string }[];
}

/** What this island's wallet actions do, as its notices say it. */
const PURPOSE = "move assets";

const MESSAGES = walletMessages(PURPOSE);
const AMOUNT_MESSAGE = "Enter an amount as a number above zero, like 50 or 12.5.";

/** Asks the game for a signed claim of `fields`; the refusal in the market's words. */
export async function requestClaim(fields: Record<string, string>): Promise<ClaimWire> {
  const response = await fetch("/resources/bridge-claim", { method: "POST", body: new URLSearchParams(fields) });
  const answer = (await response.json().catch(() => ({}))) as { claim?: ClaimWire; message?: string };
  if (!response.ok || !answer.claim) throw new ShownError(answer.message ?? "The game could not sign the claim. Please try again.");
  return answer.claim;
}

type Intent = "claim" | "move";

function Panel({ chain, account, here, onConfirmed, pending }: BridgePanelProps) {
  const wallet = useBrowserWallet({ chainId: chain.chainId, account, messages: MESSAGES });
  const { steps, outcome, busy, report, clientsOf, run } = useTransactionRun<BridgeStep>();
  const [fieldError, setFieldError] = useState<{ intent: Intent; message: string } | null>(null);
  const [subject, setSubject] = useState("");
  const ids = useId();

  /** One sequence at a time; `shown` names what it moves in its steps' titles. */
  async function carry(shown: string, sequence: () => Promise<string>) {
    if (busy) return;
    setSubject(shown);
    if ((await run(sequence)) === "done") onConfirmed();
  }

  function submit(intent: Intent) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      const currency = form.get("currency") === "QUARK" ? "QUARK" : "FIRE";
      const amount = parseTokenAmount(String(form.get("amount") ?? "").trim());
      if (!amount) {
        setFieldError({ intent, message: AMOUNT_MESSAGE });
        return;
      }
      setFieldError(null);
      const shown = formatPrice(amount, currency);
      void carry(shown, async () => {
        const clients = await clientsOf(wallet);
        if (intent === "claim") {
          const claim = await requestClaim({ intent: "claim-token", currency, amount: String(form.get("amount")) });
          await submitClaim(clients, chain.contracts, claim, report);
          return `${shown} claimed to your wallet.`;
        }
        await swapTokenIntoGame(clients, chain.contracts, { currency, amount }, report);
        return `${shown} sent to the game: it is credited once the chain has recorded it.`;
      });
    };
  }

  /** A pending claim, signed again by the game, submitted from the wallet: the same claim, paid at most once. */
  function resubmit(claim: { txId: string; what: string }) {
    void carry(claim.what, async () => {
      await submitClaim(await clientsOf(wallet), chain.contracts, await requestClaim({ intent: "submit-claim", txId: claim.txId }), report);
      return `${claim.what} claimed to your wallet.`;
    });
  }

  const stepTitle = (step: BridgeStep) =>
    step === "approve" ? `Approve ${subject} for the game` : step === "claim" ? `Claim ${subject}` : `Move ${subject} into the game`;

  const tokenForm = (intent: Intent, title: string, button: string) => {
    const error = fieldError?.intent === intent ? fieldError.message : null;
    return (
      <form onSubmit={submit(intent)} noValidate aria-labelledby={`${ids}-${intent}`} className="flex flex-col gap-2">
        <h3 id={`${ids}-${intent}`} className="font-semibold text-white">
          {title}
        </h3>
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm font-medium">
            Token
            <select name="currency" className="field-input" defaultValue="FIRE">
              <option value="FIRE">FIRE</option>
              <option value="QUARK">QUARK</option>
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Amount
            <input
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              readOnly={busy}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${ids}-${intent}-error` : undefined}
              className="field-input w-40"
            />
          </label>
          <button type="submit" className="btn-primary" disabled={busy || wallet.blocked}>
            {busy ? "Please wait…" : button}
          </button>
        </div>
        {error && (
          <p id={`${ids}-${intent}-error`} className="text-sm font-semibold text-amber-300">
            {error}
          </p>
        )}
      </form>
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <WalletModeNotice
        purpose={PURPOSE}
        wallet={wallet}
        here={here}
        busy={busy}
        onSwitch={() => void carry("", async () => (await wallet.switchNetwork(), "Network switched."))}
      />
      <div className="grid gap-6 md:grid-cols-2">
        {tokenForm("claim", "Claim to the chain", "Claim")}
        {tokenForm("move", "Move into the game", "Move")}
      </div>
      {pending.length > 0 && (
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold text-white">Claims waiting for your wallet</h3>
          <ul className="flex flex-col gap-2 text-sm" aria-label="Claims waiting for your wallet">
            {pending.map((claim) => (
              <li key={claim.txId} className="flex flex-wrap items-center gap-3">
                #{claim.txId} · {claim.what}
                <button
                  type="button"
                  className="btn-secondary px-3 py-1 text-xs"
                  onClick={() => resubmit(claim)}
                  disabled={busy || wallet.blocked}
                >
                  Submit from your wallet
                  <span className="sr-only"> (claim #{claim.txId})</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ActionProgress steps={steps} outcome={outcome} title={stepTitle} />
    </div>
  );
}

export default withWallet(Panel);
