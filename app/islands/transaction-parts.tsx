/**
 * What the transaction islands (the bridge's on /game and an item's page, the spaceships') show while a sequence
 * runs: each transaction's state, then the outcome; a failure as an alert. Plain React, loaded with them.
 */
export type StepState = "wallet" | "pending" | "confirmed";
export type StepView<S extends string = string> = { step: S; state: StepState | "failed" };
export type Outcome = { status: "running" | "confirmed" | "failed"; text: string };

const STATE_TEXT: Record<StepView["state"], string> = {
  wallet: "confirm in your wallet…",
  pending: "pending, waiting for confirmation…",
  confirmed: "confirmed",
  failed: "failed",
};

export function ActionProgress<S extends string>({
  steps,
  outcome,
  title,
  testId = "bridge-status",
}: {
  steps: StepView<S>[];
  outcome: Outcome | null;
  title: (step: S) => string;
  testId?: string;
}) {
  return (
    <>
      <div aria-live="polite" role="status" className="min-h-6 text-sm" data-testid={testId} data-state={outcome?.status ?? "idle"}>
        {steps.length > 0 && (
          <ol className="flex flex-col gap-1">
            {steps.map(({ step, state }) => (
              <li key={step}>
                {title(step)}: {STATE_TEXT[state]}
              </li>
            ))}
          </ol>
        )}
        {outcome?.status === "running" && steps.length === 0 && <p>{outcome.text}</p>}
        {outcome?.status === "confirmed" && <p className="font-semibold text-emerald-300">Confirmed: {outcome.text}</p>}
      </div>
      {outcome?.status === "failed" && (
        <p role="alert" className="rounded-md border border-red-400 bg-red-950 px-3 py-2 text-sm">
          Failed: {outcome.text}
        </p>
      )}
    </>
  );
}
