/**
 * The executor's analytics events (decision 0009): a mined lootbox.buy is reported once, with what the sale's
 * receipt says, whether or not anyone opens its status page; a sink that fails, and restarts, never make it twice;
 * a failed action reports nothing. The sink is a real HTTP server, as ANALYTICS_SINK's URL would be.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blindBoxAbi } from "../../contracts/generated/abi";
import type { AnalyticsEvent } from "~core/analytics";
import { openDatabase } from "../../backend/schema";
import { createEventDeliverer, DELIVERED_EVENT_RETENTION_MS, PRUNE_BATCH } from "../../backend/sso/executor/events";
import { createExecutionRecords } from "../../backend/sso/executor/records";
import { startTestChain, type TestChain } from "../contracts/harness";
import { type ExecutorBackend, managedPlayer, newKey, postAction, settled, startExecutorBackends } from "./sso-executor-helpers";
import { freshDatabase } from "./engine";

type Delivered = AnalyticsEvent & { event_id: string; at: string };

/** An analytics endpoint that answers `status`, and keeps what it was sent and what it accepted. */
async function startSink() {
  const sink = { status: 200, received: [] as Delivered[], accepted: [] as Delivered[], url: "", close: async () => {} };
  const app = express();
  app.post("/collect", express.json(), (req, res) => {
    sink.received.push(req.body as Delivered);
    if (sink.status === 200) sink.accepted.push(req.body as Delivered);
    res.status(sink.status).end();
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/collect`;
  sink.close = () => new Promise((resolve) => server.close(() => resolve()));
  return sink;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(20);
  }
}

const buyStandard = (quantity: number) => ({
  action: "lootbox.buy" as const,
  params: { typeBox: 4, currency: "USDT" as const, quantity },
  idempotencyKey: newKey(),
});

let t: TestChain;
let sink: Awaited<ReturnType<typeof startSink>>;
beforeAll(async () => {
  t = await startTestChain();
  sink = await startSink();
});
afterAll(async () => {
  await sink?.close();
  await t?.close();
});

describe("a mined action's events", () => {
  let b: ExecutorBackend;
  beforeAll(async () => {
    b = await startExecutorBackends(t, undefined, { analytics: { kind: "http", url: sink.url } });
  });
  afterAll(() => b?.close());

  it("reports a mined purchase once, from its receipt, with nobody watching its status page; its opening as one select_content a box", async () => {
    sink.status = 200;
    const { token } = await managedPlayer(b, t, { BNB: 1n, USDT: 100n });
    const posted = await postAction(b, token, buyStandard(2));
    expect(posted.status, posted.msg).toBe(200);
    const id = posted.data.id;
    // Only the SSO API is asked, as the app's status page would; the event does not wait on any reader.
    const bought = await settled(b, token, id);
    expect(bought.status).toBe("mined");
    const buyStep = bought.steps.find((step) => step.kind === "buy")!;
    const mine = () => sink.accepted.filter((event) => event.event_id.startsWith(id));
    await until(() => mine().length > 0);
    await sleep(300);
    expect(mine()).toEqual([
      {
        event: "purchase",
        value: "20",
        currency: "USDT",
        transaction_id: buyStep.txHash!.toLowerCase(),
        items: [{ item_id: "lootbox-4", item_name: "Standard loot box", item_category: "Loot box", price: "10", quantity: 2 }],
        event_id: `${id}-1-0`,
        at: bought.updatedAt,
      },
    ]);

    const boxIds = bought.result!.boxIds!;
    const open = await postAction(b, token, { action: "lootbox.open", params: { boxIds }, idempotencyKey: newKey() });
    expect(open.status, open.msg).toBe(200);
    expect((await settled(b, token, open.data.id)).status).toBe("mined");
    const opened = () => sink.accepted.filter((event) => event.event_id.startsWith(open.data.id));
    await until(() => opened().length === 2);
    await sleep(200);
    expect(
      opened().map((event) => [event.event, "content_type" in event && event.content_type, "item_id" in event && event.item_id]),
    ).toEqual(boxIds.map((boxId) => ["select_content", "loot_box", boxId]));
  });

  it("reports nothing for an action that failed", async () => {
    sink.status = 200;
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, boxes: { 4: 1 } });
    const [held] = await t.publicClient.readContract({
      address: t.deployment.contracts.box,
      abi: blindBoxAbi,
      functionName: "queryUserBoxes",
      args: [wallet],
    });
    const boxIds = [held[0]!.toString()];
    // Both are accepted while the box is held; the second, planned again at its turn, finds it opened and fails.
    await t.testClient.setAutomine(false);
    try {
      const first = await postAction(b, token, { action: "lootbox.open", params: { boxIds }, idempotencyKey: newKey() });
      const second = await postAction(b, token, { action: "lootbox.open", params: { boxIds }, idempotencyKey: newKey() });
      expect([first.status, second.status]).toEqual([200, 200]);
      await t.testClient.setAutomine(true);
      await t.testClient.mine({ blocks: 1 });
      expect((await settled(b, token, first.data.id)).status).toBe("mined");
      expect((await settled(b, token, second.data.id)).status).toBe("failed");
      await until(() => sink.accepted.some((event) => event.event_id.startsWith(first.data.id)));
      await sleep(300);
      expect(sink.received.filter((event) => event.event_id.startsWith(second.data.id))).toEqual([]);
    } finally {
      await t.testClient.setAutomine(true);
    }
  });
});

describe("delivery", () => {
  it("tries a failing sink again, and across restarts sends an event once it is taken, never again", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-executor-events-"));
    const file = path.join(dir, "test.db");
    const options = { analytics: { kind: "http" as const, url: sink.url } };
    let b: ExecutorBackend | undefined;
    try {
      sink.status = 503;
      b = await startExecutorBackends(t, file, options);
      const { token } = await managedPlayer(b, t, { BNB: 1n, USDT: 100n });
      const posted = await postAction(b, token, buyStandard(1));
      const id = posted.data.id;
      expect((await settled(b, token, id)).status).toBe("mined");
      const tries = () => sink.received.filter((event) => event.event_id.startsWith(id));
      const taken = () => sink.accepted.filter((event) => event.event_id.startsWith(id));
      await until(() => tries().length >= 2);
      expect(taken()).toEqual([]);
      await b.close();
      b = undefined;

      sink.status = 200;
      b = await startExecutorBackends(t, file, options);
      await until(() => taken().length > 0);
      await sleep(300);
      expect(taken()).toHaveLength(1);
      expect(taken()[0]).toMatchObject({ event: "purchase", value: "10", currency: "USDT", event_id: `${id}-1-0` });
      // Every try named the same event, so a sink may also drop a repeat by its id.
      expect(new Set(tries().map((event) => event.event_id))).toEqual(new Set([`${id}-1-0`]));
      await b.close();
      b = undefined;

      const before = tries().length;
      b = await startExecutorBackends(t, file, options);
      await sleep(300);
      expect([taken().length, tries().length]).toEqual([1, before]);
    } finally {
      sink.status = 200;
      await b?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A fresh database with one user, and `signed(n)`: that user's one-step execution number n, signed and sent. */
async function outboxDatabase() {
  const store = await openDatabase(await freshDatabase());
  const executions = createExecutionRecords(store.db);
  await store.db.insertInto("users").values({ id: 1, email: "o@sparkera.test", password_hash: "x", created_at: "" }).execute();
  // The executor's holding these steps are signed under (db/roles.ts).
  await store.db.insertInto("role_fences").values({ role: "executor", token: 1 }).execute();
  const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as const;
  const signed = async (n: number) => {
    const row = (await executions.insert({
      userId: 1,
      wallet,
      action: "lootbox.open",
      params: { boxIds: [String(n)] },
      idempotencyKey: `outbox-key-${n}-0123456789`,
      steps: [{ kind: "open", label: "Open 1 box", to: wallet, data: "0x", value: 0n, gas: 100_000n }],
    }))!;
    await executions.stepSigned(row.seq, 0, 1, { nonce: n, rawTx: "0x01", txHash: `0x${String(n).repeat(64)}` });
    return row;
  };
  return { store, executions, signed };
}

describe("the outbox", () => {
  it("keeps a mined step's events back until the execution is mined, and drops them when it fails", async () => {
    const { store, executions, signed } = await outboxDatabase();
    try {
      const opened = (n: number): AnalyticsEvent => ({ event: "select_content", content_type: "loot_box", item_id: String(n) });
      const events = () => store.db.selectFrom("action_events").selectAll().orderBy("seq").execute();

      const failing = await signed(1);
      await executions.stepMined(failing, 0, 5n, {}, [opened(1)]);
      expect((await events()).map((row) => [row.id, row.released_at])).toEqual([[`${failing.id}-0-0`, null]]);
      await executions.fail(failing.seq, "Open 1 box failed on the chain.", 0);
      expect(await events()).toEqual([]);

      const mined = await signed(2);
      await executions.stepMined(mined, 0, 6n, {}, [opened(2)]);
      await executions.finish(mined.seq);
      const [row] = await events();
      expect(row).toMatchObject({ id: `${mined.id}-0-0`, payload: JSON.stringify(opened(2)), delivered_at: null });
      expect(row!.released_at).toBe((await executions.byId(mined.id))!.updated_at);
    } finally {
      await store.close();
    }
  });

  it("stops when stop() comes while it looks for events and finds none (it does not then wait for a kick)", async () => {
    const { store } = await outboxDatabase();
    let looking = () => {};
    const lookedOnce = new Promise<void>((resolve) => (looking = resolve));
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    // Holds the outbox query's answer until stop() has been called.
    const db = store.db.withPlugin({
      transformQuery: (args) => args.node,
      async transformResult(args) {
        looking();
        await answered;
        return args.result;
      },
    });
    try {
      const deliverer = createEventDeliverer({
        db,
        send: async () => {},
        log: { info() {}, warn() {}, error() {} },
        retryMs: 10,
        retryMaxMs: 10,
      });
      deliverer.start();
      await lookedOnce;
      const stopping = deliverer.stop();
      answer();
      const outcome = await Promise.race([stopping.then(() => "stopped"), sleep(5_000).then(() => "still running")]);
      expect(outcome).toBe("stopped");
    } finally {
      await store.close();
    }
  });

  it("drops a delivered event once it is a week old, and keeps a newer one and every undelivered one", async () => {
    const { store, executions, signed } = await outboxDatabase();
    try {
      const released = async (n: number) => {
        const row = await signed(n);
        await executions.stepMined(row, 0, BigInt(n), {}, [{ event: "select_content", content_type: "loot_box", item_id: String(n) }]);
        await executions.finish(row.seq);
        return `${row.id}-0-0`;
      };
      const kept = async () => (await store.db.selectFrom("action_events").select("id").orderBy("seq").execute()).map((row) => row.id);
      let clock = Date.parse("2026-11-01T00:00:00Z");
      let sinkUp = true;
      const sent: string[] = [];
      const deliverer = createEventDeliverer({
        db: store.db,
        send: async (event) => {
          if (!sinkUp) throw new Error("sink down");
          sent.push(event.event_id);
        },
        log: { info() {}, warn() {}, error() {} },
        retryMs: 10,
        retryMaxMs: 10,
        now: () => clock,
      });
      try {
        const old = await released(1);
        deliverer.start();
        await until(() => sent.includes(old));
        clock += DELIVERED_EVENT_RETENTION_MS - 1;
        const recent = await released(2);
        deliverer.kick();
        await until(() => sent.includes(recent));
        sinkUp = false;
        const waiting = await released(3);
        // A week and an hour after the first delivery: the first goes, the second is six days old, the third never went.
        clock += 3_600_001;
        deliverer.kick();
        await until(async () => !(await kept()).includes(old));
        expect(await kept()).toEqual([recent, waiting]);
      } finally {
        await deliverer.stop();
      }
    } finally {
      await store.close();
    }
  });

  it("drops more old delivered events than one batch holds, in batches, and only those", async () => {
    const { store, signed } = await outboxDatabase();
    try {
      const row = await signed(1);
      const clock = Date.parse("2026-11-20T00:00:00Z");
      const old = new Date(clock - DELIVERED_EVENT_RETENTION_MS - 1).toISOString();
      const recent = new Date(clock - 1).toISOString();
      const event = (id: string, deliveredAt: string | null) => ({
        id,
        execution_seq: row.seq,
        payload: JSON.stringify({ event: "select_content", content_type: "loot_box", item_id: id }),
        released_at: old,
        delivered_at: deliveredAt,
      });
      const olds = Array.from({ length: PRUNE_BATCH * 2 + 1 }, (_, n) => event(`old-${n}`, old));
      for (let n = 0; n < olds.length; n += 200)
        await store.db
          .insertInto("action_events")
          .values(olds.slice(n, n + 200))
          .execute();
      await store.db
        .insertInto("action_events")
        .values([event("recent", recent), event("undelivered", null)])
        .execute();
      const sent: string[] = [];
      const deliverer = createEventDeliverer({
        db: store.db,
        send: async (delivered) => void sent.push(delivered.event_id),
        log: { info() {}, warn() {}, error() {} },
        retryMs: 10,
        retryMaxMs: 10,
        now: () => clock,
      });
      deliverer.start();
      try {
        await until(() => sent.includes("undelivered"));
        const left = await store.db.selectFrom("action_events").select("id").orderBy("seq").execute();
        expect(left.map((kept) => kept.id)).toEqual(["recent", "undelivered"]);
      } finally {
        await deliverer.stop();
      }
    } finally {
      await store.close();
    }
  });
});
