/**
 * The executor's writes after a signature, as two runners write them across a takeover (decision 0013): the old
 * holder and the new one may both reach the same receipt, so a step is recorded mined once, an execution ends once,
 * and an ended execution is never ended again the other way. A plan or a signature stored under a fencing token that
 * a later holding replaced is refused.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "../../backend/schema";
import type { BackendDb } from "../../backend/types";
import { createExecutionRecords } from "../../backend/sso/executor/records";
import { freshDatabase } from "./engine";

const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as const;
const STEP = { kind: "buy" as const, label: "Buy the boxes", to: WALLET, data: "0x" as const, value: 1n, gas: 21_000n };
const EVENT = { event: "purchase", transaction_id: "0xabc", currency: "BNB", value: 1, items: [] } as never;

let store: BackendDb;
let executions: ReturnType<typeof createExecutionRecords>;
/** The executor's holding these tests store under (db/roles.ts). */
const FENCE = 1;
let keys = 0;
beforeAll(async () => {
  store = await openDatabase(await freshDatabase());
  executions = createExecutionRecords(store.db);
  await store.db.insertInto("users").values({ id: 1, email: "r@sparkera.test", password_hash: "x", created_at: "" }).execute();
  await store.db.insertInto("role_fences").values({ role: "executor", token: FENCE }).execute();
});
afterAll(() => store?.close());

/** An execution of one step, not signed yet. */
const pendingExecution = async () =>
  (await executions.insert({
    userId: 1,
    wallet: WALLET,
    action: "lootbox.buy",
    params: { typeBox: 4, currency: "BNB", quantity: 1 },
    idempotencyKey: `records-key-${++keys}-0123456789`,
    steps: [STEP],
  }))!;

/** An execution of one step, signed and sent. */
async function sentExecution() {
  const row = await pendingExecution();
  expect(await executions.stepSigned(row.seq, 0, FENCE, { nonce: 0, rawTx: "0x01", txHash: `0x${"ab".repeat(32)}` })).toBe(true);
  return row;
}

const events = (seq: number) => store.db.selectFrom("action_events").selectAll().where("execution_seq", "=", seq).execute();

it("signs a step once: a second signature is refused, not stored", async () => {
  const row = await sentExecution();
  expect(await executions.stepSigned(row.seq, 0, FENCE, { nonce: 1, rawTx: "0x02", txHash: `0x${"cd".repeat(32)}` })).toBe(false);
  expect((await executions.step(row.seq, 0))?.raw_tx).toBe("0x01");
});

it("records a mined step once when two runners reach its receipt, its events included", async () => {
  const row = await sentExecution();
  await Promise.all([
    executions.stepMined(row, 0, 10n, { boxIds: ["1"] } as never, [EVENT]),
    executions.stepMined(row, 0, 10n, { boxIds: ["1"] } as never, [EVENT]),
  ]);
  expect(await events(row.seq)).toHaveLength(1);
  await Promise.all([executions.finish(row.seq), executions.finish(row.seq)]);
  expect((await executions.byId(row.id))?.status).toBe("mined");
  expect((await events(row.seq))[0].released_at).not.toBeNull();
});

it("never fails a mined execution, nor keeps its events from the sink", async () => {
  const row = await sentExecution();
  await executions.stepMined(row, 0, 11n, { boxIds: ["2"] } as never, [EVENT]);
  await executions.finish(row.seq);
  await executions.fail(row.seq, "Something went wrong on our side.", 0);
  const after = await executions.byId(row.id);
  expect(after).toMatchObject({ status: "mined", error: null });
  expect(await events(row.seq)).toHaveLength(1);
  expect((await executions.step(row.seq, 0))?.status).toBe("mined");
});

it("never marks a failed execution mined", async () => {
  const row = await sentExecution();
  await executions.fail(row.seq, "The chain refused the transaction.", 0);
  await executions.finish(row.seq);
  expect((await executions.byId(row.id))?.status).toBe("failed");
});

it("refuses a plan and a signature under a fencing token a later holding replaced, and keeps the new holding's", async () => {
  const row = await pendingExecution();
  // Another process took the executor role: its token is the current one.
  const later = FENCE + 1;
  await store.db.updateTable("role_fences").set({ token: later }).where("role", "=", "executor").execute();
  try {
    expect(await executions.replaceSteps(row.seq, FENCE, [STEP, STEP])).toBe(false);
    expect(await executions.steps(row.seq)).toHaveLength(1);
    expect(await executions.stepSigned(row.seq, 0, FENCE, { nonce: 0, rawTx: "0x01", txHash: `0x${"ab".repeat(32)}` })).toBe(false);
    expect(await executions.step(row.seq, 0)).toMatchObject({ status: "pending", raw_tx: null, fence: null });
    expect(await executions.stepSigned(row.seq, 0, later, { nonce: 0, rawTx: "0x02", txHash: `0x${"cd".repeat(32)}` })).toBe(true);
    expect(await executions.step(row.seq, 0)).toMatchObject({ status: "sent", raw_tx: "0x02", fence: later });
  } finally {
    await store.db.updateTable("role_fences").set({ token: FENCE }).where("role", "=", "executor").execute();
  }
});
