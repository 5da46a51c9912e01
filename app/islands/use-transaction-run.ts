/**
 * What a transaction island keeps while a sequence runs, for ActionProgress to show: each transaction's state, the
 * outcome, and one sequence at a time. A failure marks the transaction it stopped on and is put in words.
 */
import { useRef, useState } from "react";
import { chainErrorMessage, type WalletClients } from "./chain-errors";
import type { Outcome, StepState, StepView } from "./transaction-parts";

/** What the hook needs of useBrowserWallet's answer. */
interface ConnectableWallet {
  requireWallet(onConnecting: () => void): Promise<`0x${string}`>;
  clientsFor(address: `0x${string}`): Promise<WalletClients>;
}

export function useTransactionRun<S extends string>(failure: (error: unknown) => string = chainErrorMessage) {
  const [steps, setSteps] = useState<StepView<S>[]>([]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const inFlight = useRef(false);

  const report = (step: S, state: StepState) => setSteps((previous) => [...previous.filter((view) => view.step !== step), { step, state }]);

  /** The wallet's clients once it is connected (saying so while it connects) and its mode allows chain actions. */
  const clientsOf = async (wallet: ConnectableWallet) =>
    wallet.clientsFor(await wallet.requireWallet(() => setOutcome({ status: "running", text: "Connect your wallet…" })));

  /**
   * Runs `sequence` unless one runs already (then resolves null). It returns its confirmed outcome's text, or null when
   * it set the outcome itself; resolves how it ended.
   */
  async function run(sequence: () => Promise<string | null>): Promise<"done" | "failed" | null> {
    if (inFlight.current) return null;
    inFlight.current = true;
    setSteps([]);
    setOutcome({ status: "running", text: "Checking your wallet…" });
    try {
      const text = await sequence();
      if (text !== null) setOutcome({ status: "confirmed", text });
      return "done";
    } catch (error) {
      setSteps((previous) => previous.map((view) => (view.state === "confirmed" ? view : { ...view, state: "failed" })));
      setOutcome({ status: "failed", text: failure(error) });
      return "failed";
    } finally {
      inFlight.current = false;
    }
  }

  return { steps, outcome, setOutcome, busy: outcome?.status === "running", report, clientsOf, run };
}
