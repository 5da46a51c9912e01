/**
 * The runner's part of a sponsored action (decision 0038): the tank's BNB transfer, signed by the tank one at a time
 * (its one nonce sequence serves every wallet's queue) and held while the tank is dry, and the refund of what the gas
 * did not use, reckoned from the receipts to the wei. Every transaction goes out through the runner's own
 * signAndSend: signed, stored under the fence, then broadcast.
 */
import { type Address, type Hex, isAddressEqual, type LocalAccount, type PublicClient } from "viem";
import type { BackendLog } from "../../types";
import type { ActionExecutionRow, ActionStepRow } from "../shared/tables";
import { type PlannedStep, Refusal } from "./plan";
import { type ExecutionRecords, plannedStep } from "./records";

/** The tank as the runner sees it: who signs, where fees go, and the most one top-up may send. */
export interface GasTank {
  account: LocalAccount;
  feeReceiver: Address;
  maxTopUpWei: bigint;
}

/** The gas tank holds too little to send a sponsored action's gas: the action waits, unsigned, until it is refilled. */
export class TankDry extends Error {}

const GAS_STEPS: readonly ActionStepRow["kind"][] = ["gas-topup", "gas-fee", "gas-refund"];
export const isGasStep = (kind: ActionStepRow["kind"]) => GAS_STEPS.includes(kind);

const NOT_SIGNABLE = "This transaction is not one the wallet may be asked to sign, so nothing was sent.";

/**
 * A sponsored execution planned again: the tank's gas, the fee and the refund as stored (the quote fixed them), around
 * the action's steps as they are now.
 */
export function sponsoredAgain(stored: readonly ActionStepRow[], planned: readonly PlannedStep[]): PlannedStep[] {
  const first = stored.findIndex((row) => !isGasStep(row.kind));
  const last = stored.length - 1 - [...stored].reverse().findIndex((row) => !isGasStep(row.kind));
  // The gas steps before the action's first step (the tank's transfer, a fee paid first) and after its last (a fee paid
  // from what a claim brought, the refund) keep their places.
  return [...stored.slice(0, first).map(plannedStep), ...planned, ...stored.slice(last + 1).map(plannedStep)];
}

/** The runner's one way a step goes out: signed with a nonce it counts, stored, then broadcast. */
export type SignAndSend = (
  row: ActionExecutionRow,
  step: ActionStepRow,
  signer: LocalAccount,
  tx: PlannedStep,
  gasPrice: bigint,
  /** The wallet a refusal's message names (the managed wallet's, also when the tank signs). */
  wallet: Address,
) => Promise<void>;

export function createGasSteps({
  client,
  records,
  tank,
  log,
  signAndSend,
}: {
  client: PublicClient;
  records: ExecutionRecords;
  tank: GasTank | null;
  log: BackendLog;
  signAndSend: SignAndSend;
}) {
  /** The tank's signatures, one at a time. */
  let tankTurn: Promise<unknown> = Promise.resolve();
  /** Whether the tank's dryness was logged since it last paid: once per dry spell, not once per waiting action. */
  let tankDryLogged = false;

  /** The tank's BNB for a sponsored action's gas, to the execution's wallet only; it waits while the tank is dry. */
  async function sendTopUp(row: ActionExecutionRow, step: ActionStepRow): Promise<void> {
    const tx = plannedStep(step);
    // Never more than an account's day of gas: a stored step is not trusted to bound what the tank sends.
    if (!tank || !isAddressEqual(tx.to, row.wallet as Address) || tx.data !== "0x" || tx.value > tank.maxTopUpWei) {
      log.error(
        `executor: refused the gas tank's transfer for execution ${row.id}: not to its wallet, above a day's gas, or without a tank`,
      );
      throw new Refusal(NOT_SIGNABLE);
    }
    const turn = tankTurn.then(async () => {
      const [balance, gasPrice] = await Promise.all([client.getBalance({ address: tank.account.address }), client.getGasPrice()]);
      if (balance < tx.value + tx.gas * gasPrice) {
        if (!tankDryLogged)
          log.error(`executor: the gas tank ${tank.account.address} holds too little to send sponsored actions their gas`);
        tankDryLogged = true;
        throw new TankDry();
      }
      tankDryLogged = false;
      await signAndSend(row, step, tank.account, tx, gasPrice, row.wallet as Address);
    });
    tankTurn = turn.catch(() => undefined);
    await turn;
  }

  /**
   * What the sponsored action's gas left of the tank's BNB, less the refund's own gas: the wallet ends with the BNB it
   * had before. From the receipts of the wallet's steps, so to the wei.
   */
  async function refundValue(row: ActionExecutionRow, gasPrice: bigint): Promise<bigint> {
    const steps = await records.steps(row.seq);
    const topUp = steps.find((candidate) => candidate.kind === "gas-topup");
    const refund = steps.find((candidate) => candidate.kind === "gas-refund");
    if (!topUp || !refund) return 0n;
    let spent = 0n;
    for (const done of steps) {
      if (done.kind === "gas-topup" || done.kind === "gas-refund" || !done.tx_hash) continue;
      const receipt = await client.getTransactionReceipt({ hash: done.tx_hash as Hex });
      spent += receipt.gasUsed * receipt.effectiveGasPrice;
    }
    return BigInt(topUp.value) - spent - BigInt(refund.gas) * gasPrice;
  }

  /** The unused gas back to the tank, from the wallet; false when nothing is left above the refund's own gas. */
  async function sendRefund(row: ActionExecutionRow, step: ActionStepRow, account: LocalAccount): Promise<boolean> {
    const planned = plannedStep(step);
    if (!tank || !isAddressEqual(planned.to, tank.account.address) || planned.data !== "0x") {
      log.error(`executor: refused the refund of execution ${row.id}: not to the gas tank`);
      throw new Refusal(NOT_SIGNABLE);
    }
    const gasPrice = await client.getGasPrice();
    const value = await refundValue(row, gasPrice);
    // Nothing left above the refund's own gas (the price rose past the headroom): nothing to send back.
    if (value <= 0n) {
      await records.dropStep(row.seq, step.position);
      return false;
    }
    await signAndSend(row, step, account, { ...planned, value }, gasPrice, account.address);
    return true;
  }

  return {
    /** Sends a pending top-up or refund step; false when there was nothing to send. */
    async send(row: ActionExecutionRow, step: ActionStepRow, account: LocalAccount): Promise<boolean> {
      if (step.kind === "gas-topup") {
        await sendTopUp(row, step);
        return true;
      }
      return sendRefund(row, step, account);
    },
  };
}
