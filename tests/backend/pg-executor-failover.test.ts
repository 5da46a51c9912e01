/**
 * The executor across processes on one PostgreSQL database: two backends share the database and the chain, actions
 * are posted to both, and only the holder of the executor role signs. When the holder loses the role (its lease's
 * connection dies) another process takes the queues over through the restart path: nothing is signed twice and each
 * wallet's nonces stay contiguous. A holder that passed its last check of the lease just before losing it cannot
 * store the signature it goes on to make: the new holding's fencing token replaced its own (decision 0013).
 */
import pg from "pg";
import type { Address, Hex } from "viem";
import type { BackendLog } from "../../backend/types";
import type { RoleName } from "../../backend/db/roles";
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
/** Each backend's info lines (its roles' comings and goings among them). */
const infoLines: string[][] = [];

beforeAll(async () => {
  t = await startTestChain();
  url = await freshDatabase(undefined, "failover");
  for (let i = 0; i < 2; i++) {
    const lines: string[] = [];
    infoLines.push(lines);
    const log: BackendLog = { info: (message: string) => void lines.push(message), warn: console.warn, error: console.error };
    backends.push(await startExecutorBackends(t, url, { log }));
  }
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

/** Holds a backend's next check of the executor lease after it answered, until released. */
function holdNextConfirm(b: ExecutorBackend) {
  const roles = b.store.roles;
  const confirm = roles.confirm.bind(roles);
  let passed = () => {};
  let release = () => {};
  const reached = new Promise<void>((resolve) => (passed = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  roles.confirm = async (role: RoleName) => {
    const held = await confirm(role);
    if (role !== "executor") return held;
    roles.confirm = confirm;
    passed();
    await released;
    return held;
  };
  return { reached, release };
}

describe("the lease gap of decision 0013, closed by fencing tokens", () => {
  it("refuses the signature of a holder that lost the role after its last check: nothing of it is sent", async () => {
    const a = holder()!;
    const b = backends.find((other) => other !== a)!;
    const player = await managedPlayer(a, t, { BNB: 100n });
    const gateA = holdNextConfirm(a);
    const gateB = holdNextConfirm(b);
    const posted = await postAction(a, player.token, buy());
    expect(posted.status, posted.msg).toBe(200);
    // A planned the buy and was told it holds the role; its lease dies before it signs.
    await gateA.reached;
    const lettingGo = infoLines[backends.indexOf(a)].length;
    await cutHolderLease();
    // B took the role, planned the execution again and is about to sign its step.
    await gateB.reached;
    expect(b.store.roles.holds("executor")).toBe(true);
    const step = () =>
      admin
        // int8 comes back as text on this plain client.
        .query<{ status: string; fence: string | null; tx_hash: Hex | null }>(
          "select s.status, s.fence, s.tx_hash from action_steps s join action_executions e on e.seq = s.execution_seq where e.id = $1",
          [posted.data.id],
        )
        .then(({ rows }) => rows);
    // A signs under its old token: refused, so A stops without broadcasting, and its work lets go of the role.
    gateA.release();
    await expect
      .poll(() => infoLines[backends.indexOf(a)].slice(lettingGo).some((line) => line.includes("let go of the executor role")))
      .toBe(true);
    expect(await step()).toEqual([{ status: "pending", fence: null, tx_hash: null }]);
    expect(await t.publicClient.getTransactionCount({ address: player.wallet, blockTag: "pending" })).toBe(0);
    // B's transaction is the step's.
    gateB.release();
    expect((await settled(b, player.token, posted.data.id, 30_000)).status).toBe("mined");
    const { rows: fences } = await admin.query<{ token: string }>("select token from role_fences where role = 'executor'");
    const [stored] = await step();
    expect(stored).toMatchObject({ status: "mined", fence: fences[0].token });
    expect(await t.publicClient.getTransactionCount({ address: player.wallet })).toBe(1);
    await expectContiguousNonces([player.wallet]);
  });
});
