/**
 * The executor across processes on one PostgreSQL database: two backends share the database and the chain, actions
 * are posted to both, and only the holder of the executor role signs. When the holder loses the role (its lease's
 * connection dies) another process takes the queues over through the restart path: nothing is signed twice and each
 * wallet's nonces stay contiguous.
 */
import pg from "pg";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestChain, type TestChain } from "../contracts/harness";
import { freshDatabase } from "./engine";
import { roleHolderPids } from "../support/postgres";
import { type ExecutorBackend, managedPlayer, newKey, postAction, settled, startExecutorBackends } from "./sso-executor-helpers";

const STANDARD = 4;
const buy = () => ({
  action: "lootbox.buy" as const,
  params: { typeBox: STANDARD, currency: "BNB" as const, quantity: 1 },
  idempotencyKey: newKey(),
});

let t: TestChain;
let url: string;
let admin: pg.Client;
const backends: ExecutorBackend[] = [];

beforeAll(async () => {
  t = await startTestChain();
  url = await freshDatabase(undefined, "failover");
  for (let i = 0; i < 2; i++) backends.push(await startExecutorBackends(t, url));
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  for (const b of backends) await b.close();
  await t?.close();
});

const holder = () => backends.find((b) => b.store.roles.holds("executor"));

/** Ends the session holding the executor's lock, as a dead process or a cut network would. */
async function cutHolderLease(): Promise<void> {
  const pids = await roleHolderPids(admin, "executor");
  expect(pids).toHaveLength(1);
  await admin.query("select pg_terminate_backend($1)", [pids[0]]);
}

/** Each wallet's signed steps: nonces from 0 without a gap or a repeat, each step signed once, every hash mined. */
async function expectContiguousNonces(wallets: Address[]) {
  for (const wallet of wallets) {
    const { rows } = await admin.query<{ nonce: number; tx_hash: string }>(
      "select s.nonce, s.tx_hash from action_steps s join action_executions e on e.seq = s.execution_seq where e.wallet = $1 order by s.nonce",
      [wallet],
    );
    expect(rows.map((row) => Number(row.nonce))).toEqual(rows.map((_, i) => i));
    expect(await t.publicClient.getTransactionCount({ address: wallet })).toBe(rows.length);
    for (const row of rows)
      expect((await t.publicClient.getTransactionReceipt({ hash: row.tx_hash as `0x${string}` })).status).toBe("success");
  }
}

describe("the executor role across two processes", () => {
  it("runs actions posted to either process once, in the holder only, replays included", async () => {
    const owner = holder();
    expect(owner).toBeDefined();
    expect(backends.filter((b) => b.store.roles.holds("executor"))).toHaveLength(1);
    const players = await Promise.all([0, 1, 2].map(() => managedPlayer(backends[0], t, { BNB: 100n })));
    const posted = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const player = players[i % players.length];
        const request = buy();
        const first = await postAction(backends[i % 2], player.token, request);
        expect(first.status, first.msg).toBe(200);
        // The same key on the other process answers the same execution.
        const replay = await postAction(backends[(i + 1) % 2], player.token, request);
        expect(replay.data.id).toBe(first.data.id);
        return { token: player.token, id: first.data.id };
      }),
    );
    for (const { token, id } of posted) expect((await settled(backends[0], token, id, 30_000)).status).toBe("mined");
    await expectContiguousNonces(players.map((player) => player.wallet));
  });

  it("moves the queues to the other process when the holder's lease dies mid-run: no gap, nothing sent twice", async () => {
    const players = await Promise.all([0, 1].map(() => managedPlayer(backends[0], t, { BNB: 100n })));
    const posted: { token: string; id: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const player = players[i % 2];
      const answer = await postAction(backends[i % 2], player.token, buy());
      expect(answer.status, answer.msg).toBe(200);
      posted.push({ token: player.token, id: answer.data.id });
      if (i === 4) await cutHolderLease();
    }
    for (const { token, id } of posted) expect((await settled(backends[0], token, id, 30_000)).status).toBe("mined");
    expect(backends.filter((b) => b.store.roles.holds("executor"))).toHaveLength(1);
    expect(holder()).toBeDefined();
    await expectContiguousNonces(players.map((player) => player.wallet));
  });
});
