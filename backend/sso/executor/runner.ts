/**
 * Runs executions: one queue per wallet, in creation order, one transaction at a time. For each step: guard,
 * simulate, sign with a nonce the runner assigns, records the signed bytes, broadcast, await the receipt. A
 * restart resumes from the stored state: a signed step is sent again as the same bytes (never signed anew), so a
 * crash cannot pay twice. Only the holder of the executor role runs one (db/roles.ts): it asks before each signature
 * whether it still holds the role, and a step is stored as signed once only and under its holding's fencing token, so
 * a holder that lost the role to another process during a signature stops without sending it (the new holder's restart
 * path is the failover path).
 */
import {
  type Address,
  BaseError,
  decodeFunctionData,
  isAddressEqual,
  type Hex,
  keccak256,
  type LocalAccount,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { blindBoxSaleAbi } from "../../../contracts/generated/abi";
import type { ActionName, ActionParams, ExecutionResult } from "~core/api/actions";
import { notEnoughGasMessage } from "~core/chain-errors";
import { isProviderBusy } from "~core/chain-transport";
import { shortError } from "~core/rpc-errors";
import type { BackendChain, BackendLog } from "../../types";
import type { ActionExecutionRow, ActionStepRow } from "../shared/tables";
import { ALLOWLIST, type ContractKey, guardTransaction, GuardRefusal } from "./allowlist";
import { type PlanContext, Refusal } from "./plan";
import { planAction, plannerOf, planSteps } from "./planners";
import { type ExecutorPolicy, isApprovalStep } from "./policy";
import { feePaid } from "./gas-plan";
import { samePlan, simulationRefusal } from "./step-checks";
import { createGasSteps, type GasTank, isGasStep, type SignAndSend, sponsoredAgain, TankDry } from "./gas-steps";
import { cardOf } from "./spaceship";
import { boxOwnerOf } from "./trading";
import { type ExecutionRecords, plannedStep } from "./records";
import { createNonceGaps } from "./nonce-gap";

export interface RunnerDeps {
  records: ExecutionRecords;
  client: PublicClient;
  chain: BackendChain;
  policy: ExecutorPolicy;
  accountOf(userId: number): Promise<LocalAccount | null>;
  log: BackendLog;
  /** Whether this process still holds the executor role, asked of the database before each signature. */
  holdsRole(): Promise<boolean>;
  /** This holding's fencing token: plans and signatures are stored only while it is the current one. */
  fence: number;
  /** An execution is mined and its analytics events released. */
  onMined(): void;
  /** The gas tank that sends sponsored actions their gas (decision 0038); null without one. */
  tank?: GasTank | null;
}

/** The runner is stopping: leave everything as stored for the next start. */
class Stopped extends Error {}

const UNEXPECTED = "Something went wrong on our side, so this action was stopped. Nothing more will be sent for it.";

export function createRunner({ records, client, chain, policy, accountOf, log, holdsRole, fence, onMined, tank = null }: RunnerDeps) {
  const running = new Map<string, Promise<void>>();
  const kickedWhileRunning = new Set<string>();
  /** The next nonce of each wallet as this runner counts it; the node's pending count is the floor. */
  const nonces = new Map<string, number>();
  const stopping = new AbortController();
  function sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (stopping.signal.aborted) return reject(new Stopped());
      const onAbort = () => {
        clearTimeout(timer);
        reject(new Stopped());
      };
      const timer = setTimeout(() => {
        stopping.signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      stopping.signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  async function known(hash: Hex): Promise<boolean> {
    try {
      await client.getTransaction({ hash });
      return true;
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return false;
      throw error;
    }
  }

  async function receiptOf(hash: Hex) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }
  }

  /** A node's refusal of a broadcast, in words the player can act on. */
  async function nodeRefusal(error: unknown, step: ActionStepRow, wallet: `0x${string}`, gasPrice: bigint): Promise<Refusal> {
    const text = error instanceof BaseError ? error.details || error.shortMessage : String(error);
    if (/insufficient funds/i.test(text)) {
      const balance = await client.getBalance({ address: wallet });
      const value = BigInt(step.value);
      return new Refusal(notEnoughGasMessage({ wallet, balance, needed: BigInt(step.gas) * gasPrice + value, value }));
    }
    if (/nonce too low/i.test(text)) return new Refusal("Another transaction of this wallet took this one's place, so it was not sent.");
    return new Refusal(`The chain refused the transaction: ${text}`);
  }

  /**
   * Why a step that was simulated fine reverted once mined (another wallet got there first: a listing two buyers
   * fill at once), in the product's words: its call replayed on the state its block left; null when it passes there.
   */
  async function revertedBecause(step: ActionStepRow, wallet: Address, blockNumber: bigint): Promise<string | null> {
    const tx = plannedStep(step);
    const key = (Object.keys(chain.contracts) as ContractKey[]).find((name) => isAddressEqual(chain.contracts[name], tx.to));
    const abi = key ? ALLOWLIST[key]?.abi : undefined;
    if (!abi) return null;
    const { functionName, args } = decodeFunctionData({ abi, data: tx.data });
    try {
      await client.simulateContract({ account: wallet, address: tx.to, abi, functionName, args, value: tx.value, blockNumber });
      return null;
    } catch (error) {
      return simulationRefusal(error);
    }
  }

  /** Signs with a nonce this runner counts, stores, then broadcasts: the one way every step goes out. */
  const signAndSend: SignAndSend = async (row, step, signer, tx, gasPrice, wallet) => {
    const pending = await client.getTransactionCount({ address: signer.address, blockTag: "pending" });
    const nonce = Math.max(nonces.get(signer.address) ?? 0, pending);
    if (!(await holdsRole())) throw new Stopped();
    const rawTx = await signer.signTransaction({
      chainId: chain.chainId,
      type: "legacy",
      to: tx.to,
      data: tx.data,
      value: tx.value,
      gas: tx.gas,
      gasPrice,
      nonce,
    });
    const txHash = keccak256(rawTx);
    // Stored first by another holder, or the role moved during this signature: the new holder's is the step's transaction.
    const status = isApprovalStep(step.kind) ? "approving" : "sending";
    const value = tx.value === plannedStep(step).value ? undefined : tx.value;
    if (!(await records.stepSigned(row.seq, step.position, fence, { nonce, rawTx, txHash, value }, status))) throw new Stopped();
    nonces.set(signer.address, nonce + 1);
    try {
      await client.sendRawTransaction({ serializedTransaction: rawTx });
    } catch (error) {
      // Not sent after all (the node refused it, not merely failed to answer): its nonce is free again.
      if (isProviderBusy(error) || (await known(txHash))) return;
      nonces.delete(signer.address);
      throw await nodeRefusal(error, step, wallet, gasPrice);
    }
  };

  const gasSteps = createGasSteps({ client, records, tank, log, signAndSend });
  const tankAddress = tank?.account.address ?? null;
  const gaps = createNonceGaps({ client, records, chain, log, holdsRole, tank: tankAddress, forget: (signer) => nonces.delete(signer) });

  /**
   * A sponsored action refused after the tank's gas arrived still sends what the gas did not use back to the tank:
   * the wallet keeps no BNB it did not have. Best effort: a refund that cannot go now is logged, and the action fails.
   */
  async function refundBeforeFailing(row: ActionExecutionRow, account: LocalAccount): Promise<void> {
    const steps = await records.steps(row.seq);
    const topUp = steps.find((step) => step.kind === "gas-topup");
    const refund = steps.find((step) => step.kind === "gas-refund");
    if (!topUp || topUp.status !== "mined" || !refund || refund.status === "mined") return;
    try {
      if (refund.status === "pending" && !(await send(row, refund, account))) return;
      const receipt = await mined(await records.step(row.seq, refund.position), account.address, account);
      const stored = await records.byId(row.id);
      const result = (stored?.result ? JSON.parse(stored.result) : {}) as ExecutionResult;
      await records.stepMined(row, refund.position, receipt.blockNumber, result);
    } catch (error) {
      if (error instanceof Stopped) throw error;
      log.error(`executor: the refund of execution ${row.id}'s unused gas was not sent: ${shortError(error)}`);
    }
  }

  /** Guards, simulates, signs, stores and broadcasts a pending step; false when there was nothing to send. Refusals send nothing. */
  async function send(row: ActionExecutionRow, step: ActionStepRow, account: LocalAccount): Promise<boolean> {
    if (step.kind === "gas-topup" || step.kind === "gas-refund") return gasSteps.send(row, step, account);
    const tx = plannedStep(step);
    const call = await guardTransaction(tx, {
      contracts: chain.contracts,
      wallet: account.address,
      valueCaps: policy.valueCaps,
      nativePrice: (boxType) =>
        client.readContract({ address: chain.contracts.boxSale, abi: blindBoxSaleAbi, functionName: "priceInNative", args: [boxType] }),
      card: (tokenId) => cardOf(client, chain.contracts.card, tokenId),
      boxOwner: (tokenId) => boxOwnerOf(client, chain.contracts.box, tokenId),
      feeReceiver: step.kind === "gas-fee" ? tank?.feeReceiver : undefined,
    }).catch((error: unknown) => {
      if (!(error instanceof GuardRefusal)) throw error;
      log.error(`executor: refused to sign for execution ${row.id}: ${error.message}`);
      throw new Refusal("This transaction is not one the wallet may be asked to sign, so nothing was sent.");
    });
    try {
      await client.simulateContract({
        account: account.address,
        address: tx.to,
        abi: call.abi,
        functionName: call.functionName,
        args: call.args,
        value: tx.value,
        gas: tx.gas,
      });
    } catch (error) {
      const refusal = simulationRefusal(error);
      if (refusal) throw new Refusal(refusal);
      throw error;
    }
    await signAndSend(row, step, account, tx, await client.getGasPrice(), account.address);
    return true;
  }

  /** Polls for the receipt; a transaction the node forgot is broadcast again as the same bytes, a nonce gap closed (nonce-gap.ts). */
  async function mined(step: ActionStepRow, wallet: `0x${string}`, signer: LocalAccount | null) {
    const hash = step.tx_hash as Hex;
    const gap = gaps.watch(step, signer);
    for (;;) {
      const receipt = await receiptOf(hash);
      if (receipt) return gap.settled().then(() => receipt);
      if (!(await known(hash))) {
        try {
          await client.sendRawTransaction({ serializedTransaction: step.raw_tx as Hex });
        } catch (error) {
          if (isProviderBusy(error)) throw error;
          // Mined in the meantime, or refused for good (its nonce taken by another transaction).
          const late = await receiptOf(hash);
          if (late) return late;
          throw await nodeRefusal(error, step, wallet, await client.getGasPrice());
        }
      }
      // The step's hash is stored: whoever holds the role next waits for this receipt, so a stopping runner need not
      // (one whose transaction never mines, behind a nonce gap, would hold its process's shutdown forever).
      if (stopping.signal.aborted) throw new Stopped();
      await gap.poll();
      await sleep(chain.pollIntervalMs);
    }
  }

  /**
   * Ends an execution as failed, from the role's holder only: a runner that is stopping or lost the role may have met
   * an error the new holder's work caused (a nonce taken, a step recorded first), which fails nothing.
   */
  async function fail(seq: number, error: string, position?: number): Promise<void> {
    if (stopping.signal.aborted || !(await holdsRole().catch(() => false))) throw new Stopped();
    await records.fail(seq, error, position);
  }

  /** Runs one execution from its stored state to mined or failed. */
  async function run(id: string, accountFor: (userId: number) => Promise<LocalAccount | null>): Promise<void> {
    if (stopping.signal.aborted) throw new Stopped();
    const row = await records.byId(id);
    if (!row || row.status === "mined" || row.status === "failed") return;
    const account = await accountFor(row.user_id);
    if (!account || account.address !== row.wallet) return fail(row.seq, "This account no longer has its managed wallet.");
    const action = row.action as ActionName;
    const ctx: PlanContext = { client, contracts: chain.contracts, wallet: account.address, policy };
    let steps = await records.steps(row.seq);
    if (steps.every((step) => step.status === "pending")) {
      // Nothing signed yet: plan again against the chain as it is now (an earlier action of the queue changed it).
      try {
        const params = JSON.parse(row.params) as ActionParams[ActionName];
        // A sponsored action's gas is the tank's: its own steps are planned again, the sponsorship's kept as confirmed.
        const planned = steps.some((step) => step.kind === "gas-topup")
          ? sponsoredAgain(steps, await planSteps(ctx, action, params))
          : await planAction(ctx, action, params);
        // The plan the request stored moments ago, as a drop's queued purchases mostly are: nothing to write (the
        // fencing token is checked again when a step is signed).
        if (!samePlan(steps, planned)) {
          // Another holder took the role meanwhile: the execution is its own now.
          if (!(await records.replaceSteps(row.seq, fence, planned))) throw new Stopped();
          steps = await records.steps(row.seq);
        }
      } catch (error) {
        if (error instanceof Refusal) return fail(row.seq, error.message);
        throw error;
      }
    }
    let result = (row.result ? JSON.parse(row.result) : {}) as ExecutionResult;
    /** The last step was mined by this run, which then also marked the execution mined. */
    let finished = false;
    for (const step of steps) {
      if (step.status === "mined") continue;
      if (stopping.signal.aborted) throw new Stopped();
      // The execution's status ("approving", "sending") changes with the step's signature (records.stepSigned).
      try {
        if (step.status === "pending" && !(await send(row, step, account))) continue;
        const signer = step.kind === "gas-topup" ? (tank?.account ?? null) : account;
        const receipt = await mined(await records.step(row.seq, step.position), account.address, signer);
        if (receipt.status !== "success") {
          const why = await revertedBecause(step, account.address, receipt.blockNumber).catch(() => null);
          throw new Refusal(why ?? `${step.label} failed on the chain.`);
        }
        const planner = plannerOf(action);
        const gasStep = isGasStep(step.kind);
        if (step.kind === "gas-fee") result = { ...result, networkFee: feePaid(step, chain.contracts) };
        else if (!gasStep) result = await planner.collect(ctx, step.kind, receipt, result);
        const last = step.position === steps[steps.length - 1]!.position;
        const events = gasStep ? [] : planner.events?.(ctx, step.kind, receipt);
        await records.stepMined(row, step.position, receipt.blockNumber, result, events, { last });
        finished = last;
      } catch (error) {
        if (error instanceof Refusal) {
          await refundBeforeFailing(row, account);
          return fail(row.seq, error.message, step.position);
        }
        throw error;
      }
    }
    // Every step was mined before this run (a restart between the last receipt and this mark): mark it now.
    if (!finished) await records.finish(row.seq);
    onMined();
  }

  /** Runs one execution, trying again while the node does not answer; any other error fails it. */
  async function runUntilSettled(id: string, seq: number, accountFor: (userId: number) => Promise<LocalAccount | null>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run(id, accountFor);
      } catch (error) {
        if (error instanceof Stopped) throw error;
        if (!isProviderBusy(error) && !(error instanceof TankDry)) {
          await fail(seq, UNEXPECTED);
          log.error(`executor: execution ${id} stopped: ${shortError(error)}`);
          return;
        }
        await sleep(Math.min(policy.retryMaxMs, chain.pollIntervalMs * 2 ** attempt));
      }
    }
  }

  async function drain(wallet: string): Promise<void> {
    // The wallet's key is read and unsealed once per pass over its queue, not once per action: a drop queues several
    // purchases per wallet. Not kept beyond the pass.
    const accounts = new Map<number, Promise<LocalAccount | null>>();
    const accountFor = (userId: number) => {
      let account = accounts.get(userId);
      if (!account) {
        account = accountOf(userId).catch((error: unknown) => {
          accounts.delete(userId);
          throw error;
        });
        accounts.set(userId, account);
      }
      return account;
    };
    for (let next = await records.nextOf(wallet); next; next = await records.nextOf(wallet)) {
      await runUntilSettled(next.id, next.seq, accountFor);
    }
  }

  function kick(wallet: string): void {
    if (stopping.signal.aborted) return;
    if (running.has(wallet)) {
      kickedWhileRunning.add(wallet);
      return;
    }
    const worker = drain(wallet)
      .catch((error: unknown) => {
        if (!(error instanceof Stopped)) log.error(`executor: the queue of ${wallet} stopped: ${shortError(error)}`);
      })
      .finally(() => {
        running.delete(wallet);
        if (kickedWhileRunning.delete(wallet)) kick(wallet);
      });
    running.set(wallet, worker);
  }

  return {
    /** Makes sure the wallet's queue runs (a new execution was stored). */
    kick,
    /** Picks up every unfinished execution, as stored by an earlier run. */
    async resume(): Promise<void> {
      for (const wallet of await records.unfinishedWallets()) kick(wallet);
    },
    /** Stops at the next safe point (state stored) and waits for every queue to let go. */
    async stop(): Promise<void> {
      stopping.abort();
      while (running.size) await Promise.allSettled([...running.values()]);
    },
  };
}

export type Runner = ReturnType<typeof createRunner>;
