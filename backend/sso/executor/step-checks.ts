/**
 * Two checks of the runner's, pure: a simulation's revert in the product's words, and whether a fresh plan is the one
 * an execution stored (then nothing needs writing before its first signature).
 */
import { BaseError, ContractFunctionRevertedError, isAddressEqual } from "viem";
import { revertMessage } from "~core/chain-errors";
import type { ActionStepRow } from "../shared/tables";
import type { PlannedStep } from "./plan";
import { plannedStep } from "./records";

/** A simulation's revert in the product's words, or null when the error is no revert. */
export function simulationRefusal(error: unknown): string | null {
  if (!(error instanceof BaseError)) return null;
  const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(revert instanceof ContractFunctionRevertedError)) return null;
  if (revert.data?.errorName) return revertMessage(revert.data.errorName, revert.data.args ?? []);
  return `The contract refused: ${revert.reason ?? "no reason given"}.`;
}

/** Whether a fresh plan is the one stored (every step's call, value, gas and label alike). */
export function samePlan(stored: readonly ActionStepRow[], planned: readonly PlannedStep[]): boolean {
  return (
    stored.length === planned.length &&
    stored.every((row, i) => {
      const step = planned[i]!;
      const kept = plannedStep(row);
      return (
        row.position === i &&
        row.status === "pending" &&
        kept.kind === step.kind &&
        kept.label === step.label &&
        isAddressEqual(kept.to, step.to) &&
        kept.data === step.data &&
        kept.value === step.value &&
        kept.gas === step.gas
      );
    })
  );
}
