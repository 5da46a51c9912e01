/**
 * What a planner is: it pre-checks an action against the chain and turns it into transactions (steps), and it
 * reads each mined step's receipt into the result. Planners live by action (lootbox-buy.ts, lootbox-open.ts,
 * staking.ts, bridge.ts, spaceship.ts) and are listed in planners.ts.
 */
import type { Address, Hex, PublicClient, TransactionReceipt } from "viem";
import type { AnalyticsEvent } from "~core/analytics";
import type { ActionName, ActionParams, ExecutionResult, ExecutionStep } from "~core/api/actions";
import type { Contracts } from "./allowlist";
import type { ExecutorPolicy } from "./policy";

/** A refusal in the product's words: answered 400 before anything is queued, or the message of a failed execution. */
export class Refusal extends Error {}

export interface PlannedStep {
  kind: ExecutionStep["kind"];
  label: string;
  to: Address;
  data: Hex;
  value: bigint;
  /** The gas limit signed into the transaction. */
  gas: bigint;
}

export interface PlanContext {
  client: PublicClient;
  contracts: Contracts;
  /** The managed wallet that acts. */
  wallet: Address;
  policy: ExecutorPolicy;
}

export interface Planner<A extends ActionName> {
  /** The steps of the action now, or a Refusal; reads the chain, sends nothing. */
  plan(ctx: PlanContext, params: ActionParams[A]): Promise<PlannedStep[]>;
  /** The result with what a mined step of this action adds to it. */
  collect(ctx: PlanContext, kind: ExecutionStep["kind"], receipt: TransactionReceipt, result: ExecutionResult): Promise<ExecutionResult>;
  /**
   * The analytics events a mined step of this action records, read from its receipt (decision 0009); sent once the
   * whole execution is mined. None when absent: a stake, a swap or a ship's mission is neither a purchase nor an opening.
   */
  events?(ctx: PlanContext, kind: ExecutionStep["kind"], receipt: TransactionReceipt): AnalyticsEvent[];
}
