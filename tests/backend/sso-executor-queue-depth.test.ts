/** The executor's queue depth for the metrics (issue 16): unfinished executions by status, final ones left out. */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ExecutionStatus } from "~core/api/actions";
import { openDatabase } from "../../backend/schema";
import type { BackendDb } from "../../backend/types";
import { createExecutionRecords } from "../../backend/sso/executor/records";
import { freshDatabase } from "./engine";
import { TEST_ENGINE } from "./engine";

let store: BackendDb;
beforeAll(async () => {
  store = await openDatabase(await freshDatabase());
});
afterAll(() => store?.close());

it("counts the executions not yet final, by status", async () => {
  const executions = createExecutionRecords(store.db);
  expect(await executions.unfinishedByStatus()).toEqual({});
  await store.db.insertInto("users").values({ id: 1, email: "q@sparkera.test", password_hash: "x", created_at: "" }).execute();
  const statuses: ExecutionStatus[] = ["queued", "queued", "approving", "sending", "mined", "failed", "queued"];
  for (const [index, status] of statuses.entries()) {
    const row = await executions.insert({
      userId: 1,
      wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      action: "lootbox.open",
      params: { boxIds: [String(index)] },
      idempotencyKey: `key-${index}-0123456789`,
      steps: [],
    });
    await executions.setStatus(row!.seq, status);
  }
  expect(await executions.unfinishedByStatus()).toEqual({ queued: 3, approving: 1, sending: 1 });
});

it.skipIf(TEST_ENGINE !== "sqlite")("reads an index, not the whole table, on each scrape (SQLite's plan)", () => {
  const plan = (
    store
      .sqlite!.prepare(
        "explain query plan select status, count(*) from action_executions where status not in ('mined', 'failed') group by status",
      )
      .all() as { detail: string }[]
  ).map((row) => row.detail);
  expect(plan.join("\n")).toMatch(/USING (COVERING )?INDEX action_executions_status/);
});
