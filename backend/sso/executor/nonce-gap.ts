/**
 * Closing a nonce gap (decision 0040). The runner counts each signer's next nonce; when the chain takes back
 * transactions it counted (a deep reorg, a node that lost its pool while no step of theirs was waiting), the chain's
 * nonce falls below that count and the next transaction waits behind the gap for ever. While a step waits for its
 * receipt, every GAP_CHECK_POLLS polls ask the node for the signer's pending nonce; seen below the step's nonce twice
 * running, the gap is closed:
 * 1. each nonce of the gap whose stored transaction may go out again (a mined step's, a sent step's of an unfinished
 *    execution) is broadcast again as the same bytes: a step recorded mined happens again, as recorded;
 * 2. each nonce nothing stored may fill (sent by something else, a failed execution's step, bytes the node refuses
 *    now) gets a no-op: a transfer of nothing from the signer to itself, which moves no asset. The waiting step then
 *    mines as its own stored bytes, once.
 * Neither failing the waiting step nor signing it again at the gap's nonce is safe: its bytes stay valid, and would
 * mine as soon as anything fills the gap (the wallet's next action), so the action would happen although reported
 * failed, or twice. Only a transaction taking its nonce makes signed bytes void, and a no-op in the gap lets them mine.
 */
import { type Address, BaseError, type Hex, isAddressEqual, keccak256, type LocalAccount, type PublicClient } from "viem";
import { isProviderBusy } from "~core/chain-transport";
import { shortError } from "~core/rpc-errors";
import type { BackendChain, BackendLog } from "../../types";
import type { ActionStepRow } from "../shared/tables";
import type { ExecutionRecords } from "./records";

/** Polls without a receipt between two looks at the signer's nonce: the normal path asks nothing more. */
export const GAP_CHECK_POLLS = 5;
/** A transfer's gas: what a no-op costs the signer. */
export const NO_OP_GAS = 21_000n;

/** A stored transaction of the signer that may fill a gap, as records.signedInNonces reads it. */
export type StoredTransaction = Awaited<ReturnType<ExecutionRecords["signedInNonces"]>>[number];

/** What fills one nonce of a gap: its stored transaction, broadcast again, or (null) a no-op. */
export interface GapFill {
  nonce: number;
  stored: StoredTransaction | null;
}

/** Whether a look at the signer's pending nonce is due after this many polls without a receipt. */
export const gapCheckDue = (polls: number) => polls > 0 && polls % GAP_CHECK_POLLS === 0;

/** A gap to close: the pending nonce is below the step's, and was the same at the previous look (the chain is not moving). */
export const gapStands = (previous: number | null, pending: number, stepNonce: number) => pending < stepNonce && previous === pending;

/** Whether this stored transaction may go out again: what the records say happened, or is still to happen. */
function mayResend(stored: StoredTransaction): boolean {
  if (stored.status === "mined") return true;
  return stored.status === "sent" && stored.execution_status !== "mined" && stored.execution_status !== "failed";
}

/**
 * Each nonce of [from, to) with what fills it: a mined step's transaction first (what the records say happened), else
 * a sent step's of an unfinished execution, else nothing (a no-op).
 */
export function gapFills(from: number, to: number, stored: readonly StoredTransaction[]): GapFill[] {
  const fills: GapFill[] = [];
  for (let nonce = from; nonce < to; nonce++) {
    const candidates = stored.filter((row) => row.nonce === nonce && mayResend(row));
    fills.push({ nonce, stored: candidates.find((row) => row.status === "mined") ?? candidates[0] ?? null });
  }
  return fills;
}

/** How a node answered a broadcast that may repeat one: in its pool now, its nonce already taken, or refused. */
export function broadcastOutcome(error: unknown): "sent" | "taken" | "refused" {
  if (error === null) return "sent";
  const text = error instanceof BaseError ? `${error.details} ${error.shortMessage}` : String(error);
  if (/already known|known transaction|already imported/i.test(text)) return "sent";
  if (/nonce too low|replacement transaction underpriced|nonce has already been used/i.test(text)) return "taken";
  return "refused";
}

export interface NonceGapDeps {
  client: PublicClient;
  records: ExecutionRecords;
  chain: BackendChain;
  log: BackendLog;
  holdsRole(): Promise<boolean>;
  /** The gas tank's address: its signatures are the top-ups. */
  tank: Address | null;
  /** Forgets the runner's count of a signer's next nonce: the node's pending count is the next one. */
  forget(signer: Address): void;
}

export function createNonceGaps({ client, records, chain, log, holdsRole, tank, forget }: NonceGapDeps) {
  /** One closing per signer at a time (the tank's steps of many wallets wait at once). */
  const closing = new Map<Address, Promise<StoredTransaction[]>>();
  /** What was logged as an error, once (a gap that cannot be filled is looked at again every few polls). */
  const reported = new Set<string>();
  const errorOnce = (key: string, message: string) => {
    if (reported.has(key)) return;
    reported.add(key);
    log.error(message);
  };

  /** Broadcasts `rawTx`; how the node took it. A node that does not answer is the caller's to retry. */
  async function broadcast(rawTx: Hex): Promise<"sent" | "taken" | "refused"> {
    const hash = keccak256(rawTx);
    try {
      await client.sendRawTransaction({ serializedTransaction: rawTx });
      return "sent";
    } catch (error) {
      if (isProviderBusy(error)) throw error;
      const outcome = broadcastOutcome(error);
      if (outcome === "refused") errorOnce(hash, `executor: the node refused ${hash}, closing a nonce gap: ${shortError(error)}`);
      return outcome;
    }
  }

  /** Closes the gap [from, to) of `signer`; the mined steps sent again, whose blocks the records follow once they mine. */
  async function close(signer: LocalAccount, from: number, to: number, waiting: ActionStepRow): Promise<StoredTransaction[]> {
    const isTank = tank !== null && isAddressEqual(signer.address, tank);
    const fills = gapFills(from, to, await records.signedInNonces(signer.address, isTank, from, to));
    const resent: StoredTransaction[] = [];
    const filled: number[] = [];
    let sentAgain = 0;
    for (const fill of fills) {
      if (fill.stored) {
        const outcome = await broadcast(fill.stored.raw_tx as Hex);
        if (outcome !== "refused") {
          sentAgain++;
          if (fill.stored.status === "mined") resent.push(fill.stored);
          continue;
        }
        if (fill.stored.status === "mined")
          errorOnce(
            `lost ${fill.stored.tx_hash}`,
            `executor: execution ${fill.stored.id} step ${fill.stored.position} is recorded mined but the chain took it back and refuses it now: its effect is lost`,
          );
      }
      // Nothing may fill this nonce: a no-op takes it, from the role's holder only.
      if (!(await holdsRole())) return resent;
      const rawTx = await signer.signTransaction({
        chainId: chain.chainId,
        type: "legacy",
        to: signer.address,
        value: 0n,
        data: "0x",
        gas: NO_OP_GAS,
        gasPrice: await client.getGasPrice(),
        nonce: fill.nonce,
      });
      const outcome = await broadcast(rawTx);
      if (outcome === "refused") {
        // Still waiting, rather than failing a step whose bytes stay valid: funding the signer lets the next look fill it.
        errorOnce(
          `${signer.address} ${fill.nonce}`,
          `executor: nonce ${fill.nonce} of ${signer.address} cannot be filled: its queue waits`,
        );
        break;
      }
      if (outcome !== "sent") continue;
      filled.push(fill.nonce);
      log.warn(`executor: filled nonce ${fill.nonce} of ${signer.address} with a no-op (${keccak256(rawTx)})`);
    }
    if (filled.length) forget(signer.address);
    if (!sentAgain && !filled.length) return resent;
    log.warn(
      `executor: the nonce gap ${from}..${to - 1} of ${signer.address}, behind nonce ${to} (step ${waiting.position} of execution seq ${waiting.execution_seq}): ` +
        `${sentAgain} stored transaction(s) sent again (${resent.length} of steps recorded mined), ${filled.length} nonce(s) filled with a no-op`,
    );
    return resent;
  }

  return {
    /** Watches one step waiting for its receipt: `poll` after each poll without one, `settled` once it came. */
    watch(step: ActionStepRow, signer: LocalAccount | null) {
      let polls = 0;
      let previous: number | null = null;
      const resent: StoredTransaction[] = [];
      return {
        async poll(): Promise<void> {
          if (!signer || step.nonce === null || !gapCheckDue(++polls)) return;
          const pending = await client.getTransactionCount({ address: signer.address, blockTag: "pending" });
          const stands = gapStands(previous, pending, step.nonce);
          previous = stands ? null : pending;
          if (!stands || closing.has(signer.address)) return;
          const closed = close(signer, pending, step.nonce, step);
          closing.set(signer.address, closed);
          try {
            resent.push(...(await closed));
          } finally {
            closing.delete(signer.address);
          }
        },
        /** The steps sent again mined before this one (lower nonces): their records name their new blocks. */
        async settled(): Promise<void> {
          for (const again of resent) {
            try {
              const receipt = await client.getTransactionReceipt({ hash: again.tx_hash as Hex }).catch(() => null);
              if (!receipt || receipt.blockNumber.toString() === again.block_number) continue;
              await records.minedAgain(again.execution_seq, again.position, again.tx_hash!, receipt.blockNumber);
              log.warn(`executor: execution ${again.id} step ${again.position} mined again, in block ${receipt.blockNumber}`);
            } catch (error) {
              // Best effort: the waiting step's receipt is what its run needs.
              log.error(`executor: the new block of execution ${again.id} step ${again.position} was not recorded: ${shortError(error)}`);
            }
          }
        },
      };
    },
  };
}
