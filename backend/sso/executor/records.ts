/**
 * The executor's persistence: executions and their steps in SQLite, every change written as it happens, so a
 * restart resumes from the last state, and the per-account rate of action requests.
 */
import { randomBytes } from "node:crypto";
import { type Kysely, PostgresAdapter, type QueryCreator } from "kysely";
import { takeCustodialRate } from "../shared/custodial-rate";
import type { Address, Hex } from "viem";
import type { AnalyticsEvent } from "~core/analytics";
import type { ActionName, ActionParams, Execution, ExecutionResult, ExecutionStatus, ExecutionStep } from "~core/api/actions";
import type { Database } from "../../types";
import type { ActionExecutionRow, ActionStepRow } from "../shared/tables";
import type { PlannedStep } from "./plan";
import { groupCommit } from "./group-commit";

export interface NewExecution {
  userId: number;
  wallet: Address;
  action: ActionName;
  params: ActionParams[ActionName];
  idempotencyKey: string;
  steps: PlannedStep[];
}

const now = () => new Date().toISOString();

function stepRows(seq: number, steps: readonly PlannedStep[]) {
  return steps.map((step, position) => ({
    execution_seq: seq,
    position,
    kind: step.kind,
    label: step.label,
    status: "pending" as const,
    to_address: step.to,
    data: step.data,
    value: step.value.toString(),
    gas: step.gas.toString(),
  }));
}

/** A stored step as the runner sends it. */
export function plannedStep(row: ActionStepRow): PlannedStep {
  return {
    kind: row.kind,
    label: row.label,
    to: row.to_address as Address,
    data: row.data as Hex,
    value: BigInt(row.value),
    gas: BigInt(row.gas),
  };
}

export function toWire(row: ActionExecutionRow, steps: readonly ActionStepRow[]): Execution {
  return {
    id: row.id,
    action: row.action,
    params: JSON.parse(row.params) as ActionParams[ActionName],
    status: row.status,
    steps: steps.map(
      (step): ExecutionStep => ({
        kind: step.kind,
        label: step.label,
        status: step.status,
        txHash: step.tx_hash,
        blockNumber: step.block_number,
      }),
    ),
    txHash: row.tx_hash,
    blockNumber: row.block_number,
    error: row.error,
    result: row.result ? (JSON.parse(row.result) as ExecutionResult) : null,
    wallet: row.wallet,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The role whose fencing token a signature is stored under (db/roles.ts). */
const EXECUTOR_ROLE = "executor";

export function createExecutionRecords(db: Kysely<Database>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  /**
   * The executor's fencing-token row while `fence` is still the current token. On PostgreSQL it is share-locked to
   * the end of the transaction: a new holder's taking of the role waits for this write, or, committed first, fails it.
   */
  const currentFence = (trx: QueryCreator<Database>, fence: number) => {
    const row = trx.selectFrom("role_fences").select("token").where("role", "=", EXECUTOR_ROLE).where("token", "=", fence);
    return postgres ? row.forShare() : row;
  };
  /** The executor's write transactions: grouped into one commit per turn of the event loop on SQLite (group-commit.ts). */
  const write = groupCommit(db);
  const steps = (seq: number) => db.selectFrom("action_steps").selectAll().where("execution_seq", "=", seq).orderBy("position").execute();
  const touch = (seq: number, values: Partial<Pick<ActionExecutionRow, "status" | "error" | "result" | "tx_hash" | "block_number">>) =>
    db
      .updateTable("action_executions")
      .set({ ...values, updated_at: now() })
      .where("seq", "=", seq);

  return {
    steps,

    step: (seq: number, position: number) =>
      db.selectFrom("action_steps").selectAll().where("execution_seq", "=", seq).where("position", "=", position).executeTakeFirstOrThrow(),

    async wire(row: ActionExecutionRow): Promise<Execution> {
      return toWire(row, await steps(row.seq));
    },

    byKey: (userId: number, key: string) =>
      db.selectFrom("action_executions").selectAll().where("user_id", "=", userId).where("idempotency_key", "=", key).executeTakeFirst(),

    byId: (id: string) => db.selectFrom("action_executions").selectAll().where("id", "=", id).executeTakeFirst(),

    /** Inserts the execution and its steps unless the account's key is taken; null when it was (read it back). */
    async insert(input: NewExecution): Promise<ActionExecutionRow | null> {
      return write(async (trx) => {
        const at = now();
        const row = await trx
          .insertInto("action_executions")
          .values({
            id: randomBytes(16).toString("hex"),
            user_id: input.userId,
            wallet: input.wallet,
            action: input.action,
            params: JSON.stringify(input.params),
            idempotency_key: input.idempotencyKey,
            status: "queued",
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.columns(["user_id", "idempotency_key"]).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) return null;
        if (input.steps.length) await trx.insertInto("action_steps").values(stepRows(row.seq, input.steps)).execute();
        return row;
      });
    },

    /**
     * A fresh plan for an execution none of whose steps was signed yet, by the holding whose token is `fence`: false,
     * writing nothing, once another holder took the role (it may have signed a step of the old plan since).
     */
    async replaceSteps(seq: number, fence: number, planned: readonly PlannedStep[]): Promise<boolean> {
      return write(async (trx) => {
        if (!(await currentFence(trx, fence).executeTakeFirst())) return false;
        await trx.deleteFrom("action_steps").where("execution_seq", "=", seq).execute();
        if (planned.length) await trx.insertInto("action_steps").values(stepRows(seq, planned)).execute();
        return true;
      });
    },

    /** The oldest unfinished execution of a wallet: its queue runs in creation order. */
    nextOf: (wallet: string) =>
      db
        .selectFrom("action_executions")
        .selectAll()
        .where("wallet", "=", wallet)
        .where("status", "not in", ["mined", "failed"])
        .orderBy("seq")
        .limit(1)
        .executeTakeFirst(),

    async unfinishedWallets(): Promise<string[]> {
      const rows = await db
        .selectFrom("action_executions")
        .select("wallet")
        .distinct()
        .where("status", "not in", ["mined", "failed"])
        .execute();
      return rows.map((row) => row.wallet);
    },

    /** How many executions are not final yet, by status: the executor's queue depth. */
    async unfinishedByStatus(): Promise<Partial<Record<ExecutionStatus, number>>> {
      const rows = await db
        .selectFrom("action_executions")
        .select(["status", (eb) => eb.fn.countAll<number>().as("count")])
        .where("status", "not in", ["mined", "failed"])
        .groupBy("status")
        .execute();
      return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
    },

    setStatus: (seq: number, status: ExecutionStatus) => touch(seq, { status }).execute(),

    /**
     * Signed and stored before it is broadcast: from here on only these bytes are ever sent for this step. A step is
     * signed once (a second signature could be a second payment), and only under the current fencing token `fence`:
     * false when another signature was stored first, or another holder took the role since this one's signing began
     * (decision 0013). The token is current only if no later holding exists, so none stored a step under a higher one.
     */
    async stepSigned(
      seq: number,
      position: number,
      fence: number,
      /** `value` when the signature carries another than planned (a refund's, known only when it is signed). */
      signed: { nonce: number; rawTx: Hex; txHash: Hex; value?: bigint },
      /** The execution's status from now on ("approving" or "sending"), stored in the same transaction. */
      status?: ExecutionStatus,
    ): Promise<boolean> {
      return write(async (trx) => {
        const stored = await trx
          .updateTable("action_steps")
          .set({
            status: "sent",
            nonce: signed.nonce,
            raw_tx: signed.rawTx,
            tx_hash: signed.txHash,
            fence,
            ...(signed.value === undefined ? {} : { value: signed.value.toString() }),
          })
          .where("execution_seq", "=", seq)
          .where("position", "=", position)
          .where("status", "=", "pending")
          .where((eb) => eb.exists(currentFence(trx, fence)))
          .executeTakeFirst();
        if (stored.numUpdatedRows !== 1n) return false;
        await trx
          .updateTable("action_executions")
          .set({ ...(status ? { status } : {}), tx_hash: signed.txHash, block_number: null, updated_at: now() })
          .where("seq", "=", seq)
          .execute();
        return true;
      });
    },

    /**
     * A mined step, its result and its analytics events (held back until the execution is mined), in one transaction;
     * once only: a second runner (a holder that lost the role) reaching the same receipt writes nothing. With `last`
     * (the execution's last step) the execution is mined and its events released in that same transaction: what
     * `finish` does, one commit fewer per action (a drop's thousands of actions wait on each other's commits).
     */
    async stepMined(
      execution: Pick<ActionExecutionRow, "seq" | "id">,
      position: number,
      blockNumber: bigint,
      result: ExecutionResult,
      events: readonly AnalyticsEvent[] = [],
      { last = false }: { last?: boolean } = {},
    ): Promise<void> {
      const { seq } = execution;
      await write(async (trx) => {
        const marked = await trx
          .updateTable("action_steps")
          .set({ status: "mined", block_number: blockNumber.toString() })
          .where("execution_seq", "=", seq)
          .where("position", "=", position)
          .where("status", "=", "sent")
          .executeTakeFirst();
        if (marked.numUpdatedRows !== 1n) return;
        if (events.length) {
          await trx
            .insertInto("action_events")
            .values(
              events.map((event, n) => ({ id: `${execution.id}-${position}-${n}`, execution_seq: seq, payload: JSON.stringify(event) })),
            )
            .execute();
        }
        const at = now();
        const values = { block_number: blockNumber.toString(), result: JSON.stringify(result), updated_at: at };
        if (!last) {
          await trx.updateTable("action_executions").set(values).where("seq", "=", seq).execute();
          return;
        }
        // As `finish`: a settled execution stays as it is.
        const ended = await trx
          .updateTable("action_executions")
          .set({ ...values, status: "mined" })
          .where("seq", "=", seq)
          .where("status", "not in", ["mined", "failed"])
          .executeTakeFirst();
        if (ended.numUpdatedRows === 1n) {
          await trx.updateTable("action_events").set({ released_at: at }).where("execution_seq", "=", seq).execute();
        }
      });
    },

    /**
     * A signer's stored transactions of nonces in [from, to) that may be broadcast again to close a nonce gap (decision
     * 0040): mined steps, and sent steps of unfinished executions. The tank signs the top-ups, a wallet every other step
     * of its executions. Read only behind a gap; the tank's read scans the steps (no index on kind or nonce).
     */
    signedInNonces: (signer: string, tank: boolean, from: number, to: number) =>
      db
        .selectFrom("action_steps as s")
        .innerJoin("action_executions as e", "e.seq", "s.execution_seq")
        .select([
          "s.execution_seq",
          "s.position",
          "s.status",
          "s.nonce",
          "s.raw_tx",
          "s.tx_hash",
          "s.block_number",
          "e.id",
          "e.status as execution_status",
        ])
        .where("s.nonce", ">=", from)
        .where("s.nonce", "<", to)
        .where("s.status", "in", ["sent", "mined"])
        .$call((query) =>
          tank ? query.where("s.kind", "=", "gas-topup") : query.where("e.wallet", "=", signer).where("s.kind", "!=", "gas-topup"),
        )
        .orderBy("s.nonce")
        .orderBy("s.execution_seq")
        .execute(),

    /**
     * A mined step's transaction mined again in another block (the chain took it back and the runner sent the same
     * bytes again, decision 0040): the step, and the execution when it names that transaction, name the new block.
     */
    async minedAgain(seq: number, position: number, txHash: string, blockNumber: bigint): Promise<void> {
      await write(async (trx) => {
        const block = blockNumber.toString();
        await trx
          .updateTable("action_steps")
          .set({ block_number: block })
          .where("execution_seq", "=", seq)
          .where("position", "=", position)
          .where("status", "=", "mined")
          .where("tx_hash", "=", txHash)
          .execute();
        await trx
          .updateTable("action_executions")
          .set({ block_number: block, updated_at: now() })
          .where("seq", "=", seq)
          .where("tx_hash", "=", txHash)
          .where("block_number", "is not", null)
          .execute();
      });
    },

    /** A pending step there is nothing to send for (a refund with nothing left): gone from the execution. */
    async dropStep(seq: number, position: number): Promise<void> {
      await write((trx) =>
        trx
          .deleteFrom("action_steps")
          .where("execution_seq", "=", seq)
          .where("position", "=", position)
          .where("status", "=", "pending")
          .execute(),
      );
    },

    /** Ends an unfinished execution as failed; the step that failed (when one did) is marked with it. A settled one stays. */
    async fail(seq: number, error: string, position?: number): Promise<void> {
      await write(async (trx) => {
        const ended = await trx
          .updateTable("action_executions")
          .set({ status: "failed", error, updated_at: now() })
          .where("seq", "=", seq)
          .where("status", "not in", ["mined", "failed"])
          .executeTakeFirst();
        if (ended.numUpdatedRows !== 1n) return;
        if (position !== undefined) {
          await trx
            .updateTable("action_steps")
            .set({ status: "failed" })
            .where("execution_seq", "=", seq)
            .where("position", "=", position)
            .execute();
        }
        // A failed action reports nothing, whatever its mined steps recorded.
        await trx.deleteFrom("action_events").where("execution_seq", "=", seq).execute();
      });
    },

    /** The execution is mined, and its events are released to the deliverer in the same transaction (once). */
    async finish(seq: number): Promise<void> {
      await write(async (trx) => {
        const at = now();
        const ended = await trx
          .updateTable("action_executions")
          .set({ status: "mined", updated_at: at })
          .where("seq", "=", seq)
          .where("status", "not in", ["mined", "failed"])
          .executeTakeFirst();
        if (ended.numUpdatedRows !== 1n) return;
        await trx.updateTable("action_events").set({ released_at: at }).where("execution_seq", "=", seq).execute();
      });
    },

    /** The account's custodial-key budget (shared/custodial-rate.ts), which signed market orders draw on too. */
    // On SQLite its upsert commits with the group; on PostgreSQL its statements stay on their own (shared/custodial-rate.ts).
    takeRate: (userId: number, max: number, windowMs: number) =>
      postgres ? takeCustodialRate(db, userId, max, windowMs) : write((trx) => takeCustodialRate(trx, userId, max, windowMs)),
  };
}

export type ExecutionRecords = ReturnType<typeof createExecutionRecords>;
