/**
 * The pieces of the staking island's UI (staking-panel.client.tsx): the progress of a sequence, one line per
 * transaction. Plain React with no wallet calls: they render what the island decides.
 * Imported by the island only, so they load with it.
 */
import { forwardRef } from "react";
import type { StakingStep, StepState } from "./staking-transactions";

/** One transaction of a sequence as the user sees it; "failed" is the island's, when the sequence stops on it. */
export interface StepView {
  step: StakingStep;
  state: StepState | "failed";
}

/** The transaction's name, with the amount it moves ("Approve 100 FIRE"). */
function stepTitle(step: StakingStep, amount: string): string {
  switch (step) {
    case "approve":
      return `Approve ${amount} FIRE for the staking contract`;
    case "deposit":
      return `Stake ${amount} FIRE`;
    case "withdraw":
      return "Withdraw and claim";
  }
}

const STATE_TEXT: Record<StepView["state"], string> = {
  wallet: "confirm in your wallet…",
  pending: "pending, waiting for confirmation…",
  confirmed: "confirmed",
  failed: "failed",
};

const STATE_CLASS: Record<StepView["state"], string> = {
  wallet: "text-slate-100",
  pending: "text-slate-100",
  confirmed: "text-emerald-300",
  failed: "text-red-300",
};

/** Where a sequence stands; a confirmed one may point to what comes next (the rewards page). */
export type Outcome =
  | { status: "running" | "failed"; text: string }
  | { status: "confirmed"; text: string; next?: { href: string; text: string } };

/**
 * The sequence's transactions and its outcome, read out politely; a failure as an alert. Focusable (not in the
 * tab order) so the island can move focus here when the button pressed is disabled for the sequence.
 */
export const SequenceStatus = forwardRef<HTMLDivElement, { steps: readonly StepView[]; amount: string; outcome: Outcome | null }>(
  function SequenceStatus({ steps, amount, outcome }, ref) {
    return (
      <div ref={ref} tabIndex={-1} role="group" className="flex flex-col gap-2 outline-none" aria-label="Staking progress">
        <div
          aria-live="polite"
          role="status"
          className="min-h-6 text-sm"
          data-testid="staking-status"
          data-state={outcome?.status ?? "idle"}
        >
          {steps.length > 0 && (
            <ol className="flex flex-col gap-1">
              {steps.map(({ step, state }) => (
                <li key={step} className={STATE_CLASS[state]} data-step={step} data-state={state}>
                  {stepTitle(step, amount)}: {STATE_TEXT[state]}
                </li>
              ))}
            </ol>
          )}
          {/* Before the first transaction: connecting, checking. */}
          {outcome?.status === "running" && steps.length === 0 && <p>{outcome.text}</p>}
          {outcome?.status === "confirmed" && (
            <p className="font-semibold text-emerald-300">
              Confirmed: {outcome.text}
              {outcome.next && (
                <>
                  {" "}
                  <a href={outcome.next.href}>{outcome.next.text}</a>
                </>
              )}
            </p>
          )}
        </div>
        {outcome?.status === "failed" && (
          <p role="alert" className="rounded-md border border-red-400 bg-red-950 px-3 py-2 text-sm">
            Failed: {outcome.text}
          </p>
        )}
      </div>
    );
  },
);
