/**
 * "Claim … to the chain" on /invite from a browser wallet (issue 29): the game signs the award (a rebate's, or an
 * unpaid one again, through /resources/award-claim) and the wallet submits it to the reward manager. Loaded by the
 * click on its button (components/deferred-island.tsx), so the page ships none of it. Wallet mode first (product §4);
 * the transaction's state on screen; the page is read again after.
 */
import type { ReactNode } from "react";
import type { Address } from "viem";
import type { SignedClaimWire } from "~core/api/market";
import type { BoundWallet } from "~/domain/wallet-mode";
import { walletMessages, WalletModeNotice } from "~/islands/wallet-mode-notice";
import { ActionProgress } from "~/islands/transaction-parts";
import { useTransactionRun } from "~/islands/use-transaction-run";
import { useBrowserWallet } from "~/islands/use-browser-wallet";
import { useStartOnMount } from "~/islands/use-start-on-mount";
import { withWallet } from "~/islands/wagmi.client";
import { ShownError } from "~/islands/chain-errors";
import { submitAward } from "./award-transactions";

export interface AwardClaimProps {
  chain: { chainId: number; rpcUrl: string; rewardManager: Address };
  account: { loggedIn: boolean; bound: BoundWallet | null };
  here: string;
  /** What the game is asked for: a rebate's award ({ intent: "claim", currency }) or an unpaid one ({ intent: "submit-award", txId }). */
  fields: Record<string, string>;
  label: ReactNode;
  /** What the wallet receives, for the outcome ("12 USDT"). */
  what: string;
  onConfirmed: () => void;
  startOnMount?: boolean;
  /** Nothing (more) to claim: the button is disabled, the outcome stays. */
  disabled?: boolean;
}

const PURPOSE = "claim to the chain";
const MESSAGES = walletMessages(PURPOSE, "use its form");

async function requestAward(fields: Record<string, string>): Promise<SignedClaimWire> {
  const response = await fetch("/resources/award-claim", { method: "POST", body: new URLSearchParams(fields) });
  const answer = (await response.json().catch(() => ({}))) as { claim?: SignedClaimWire; message?: string };
  if (!response.ok || !answer.claim) throw new ShownError(answer.message ?? "The game could not sign the award. Please try again.");
  return answer.claim;
}

function AwardClaim({ chain, account, here, fields, label, what, onConfirmed, startOnMount, disabled }: AwardClaimProps) {
  const wallet = useBrowserWallet({ chainId: chain.chainId, account, messages: MESSAGES });
  const { steps, outcome, busy, report, clientsOf, run } = useTransactionRun<"claim">();

  async function go() {
    const ended = await run(async () => {
      await submitAward(await clientsOf(wallet), chain.rewardManager, await requestAward(fields), report);
      return `${what} is in your wallet.`;
    });
    if (ended) onConfirmed();
  }

  useStartOnMount(startOnMount, () => void go());

  return (
    <div className="flex flex-col items-end gap-2">
      <WalletModeNotice purpose={PURPOSE} wallet={wallet} here={here} busy={busy} />
      <button type="button" className="btn-secondary px-3 py-1" onClick={() => void go()} disabled={busy || wallet.blocked || disabled}>
        {busy ? "Please wait…" : label}
      </button>
      <ActionProgress steps={steps} outcome={outcome} title={() => `Claim ${what} to the chain`} testId="award-status" />
    </div>
  );
}

export default withWallet(AwardClaim);
