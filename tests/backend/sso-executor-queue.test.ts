/**
 * The executor under repetition and concurrency, on a real local chain: one execution per idempotency key
 * (sequential and racing posts), one queue per wallet with gapless nonces in creation order, the per-account
 * rate, and a restart that resumes without sending anything twice.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Address, Hex } from "viem";
import { blindBoxAbi } from "../../contracts/generated/abi";
import type { Execution } from "~core/api/actions";
import { setUpChainWith, type TestChain } from "../contracts/harness";
import { type ExecutorBackend, managedPlayer, newKey, postAction, settled, startExecutorBackends } from "./sso-executor-helpers";

const STANDARD = 4;

let t: TestChain;
let b: ExecutorBackend;

setUpChainWith(startExecutorBackends, (testChain, started) => ([t, b] = [testChain, started]));

const sent = (wallet: Address) => t.publicClient.getTransactionCount({ address: wallet });
const boxCount = (wallet: Address) =>
  t.publicClient.readContract({ address: t.deployment.contracts.box, abi: blindBoxAbi, functionName: "balanceOf", args: [wallet] });
const buyOne = (idempotencyKey = newKey()) => ({
  action: "lootbox.buy" as const,
  params: { typeBox: STANDARD, currency: "BNB" as const, quantity: 1 },
  idempotencyKey,
});

describe("idempotency", () => {
  it("answers a repeated post with the same execution and buys once; another action under the key is a 409", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n });
    const body = buyOne();
    const first = await postAction(b, token, body);
    const again = await postAction(b, token, body);
    expect(first.status, first.msg).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    await settled(b, token, first.data.id);
    const late = await postAction(b, token, body);
    expect([late.status, late.data.id, late.data.status]).toEqual([200, first.data.id, "mined"]);

    const changed = await postAction(b, token, { ...body, params: { ...body.params, quantity: 2 } });
    expect(changed.status).toBe(409);
    expect(changed.msg).toBe("This idempotencyKey was already used for a different action; use a new key for a new action.");
    expect([await sent(wallet), await boxCount(wallet)]).toEqual([1, 1n]);

    // Keys are per account: another account's same key is its own action.
    const other = await managedPlayer(b, t, { BNB: 1n });
    const theirs = await postAction(b, other.token, body);
    expect(theirs.data.id).not.toBe(first.data.id);
    await settled(b, other.token, theirs.data.id);
  });

  it("runs 10 racing posts of one form once: one execution, one purchase on chain", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n });
    const body = buyOne();
    const answers = await Promise.all(Array.from({ length: 10 }, () => postAction(b, token, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.data.id)).size).toBe(1);
    expect((await settled(b, token, answers[0].data.id)).status).toBe("mined");
    expect([await sent(wallet), await boxCount(wallet)]).toEqual([1, 1n]);
    const rows = await b.store.db.selectFrom("action_executions").select("id").where("wallet", "=", wallet).execute();
    expect(rows).toHaveLength(1);
  });
});

describe("one queue per wallet", () => {
  it("mines 20 concurrent actions of one wallet with nonces strictly increasing in creation order, no gaps", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 10n });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postAction(b, token, buyOne())));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const done = await Promise.all(answers.map((a) => settled(b, token, a.data.id, 60_000)));
    expect(done.map((d) => d.status)).toEqual(Array(20).fill("mined"));

    const inCreationOrder = await b.store.db
      .selectFrom("action_executions")
      .select("tx_hash")
      .where("wallet", "=", wallet)
      .orderBy("seq")
      .execute();
    const nonces = await Promise.all(
      inCreationOrder.map(async (row) => (await t.publicClient.getTransaction({ hash: row.tx_hash as Hex })).nonce),
    );
    expect(nonces).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect([await sent(wallet), await boxCount(wallet)]).toEqual([20, 20n]);
  });
});

describe("budget", () => {
  it("answers 429 past 30 action requests in 10 minutes, while replays of a stored one still answer", async () => {
    const { token } = await managedPlayer(b, t, { BNB: 1n });
    const stored = buyOne();
    expect((await postAction(b, token, stored)).status).toBe(200);
    // Refused requests count too: each one costs the node reads of its pre-check.
    const noUsdt = { typeBox: STANDARD, currency: "USDT", quantity: 1 };
    const refused = { ...buyOne(), params: noUsdt };
    for (let i = 1; i < 30; i++) expect((await postAction(b, token, refused)).status).toBe(400);
    const over = await postAction(b, token, buyOne());
    expect([over.status, over.msg]).toEqual([429, "Too many on-chain actions from this account, please try again in 10 minutes"]);
    expect((await postAction(b, token, stored)).status).toBe(200);
  });
});

describe("restart", () => {
  it("resumes after a restart without sending anything twice: a forgotten step goes again as the same bytes, a mined one is read", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-executor-restart-"));
    const file = path.join(dir, "test.db");
    let first: ExecutorBackend | undefined = await startExecutorBackends(t, file);
    let second: ExecutorBackend | undefined;
    try {
      const forgotten = await managedPlayer(first, t, { BNB: 1n });
      const minedWhileDown = await managedPlayer(first, t, { BNB: 1n });
      await t.testClient.setAutomine(false);
      const posted = [];
      for (const player of [forgotten, minedWhileDown]) {
        // Each wallet: one action in flight, one queued behind it.
        const inFlight = await postAction(first, player.token, buyOne());
        const queued = await postAction(first, player.token, buyOne());
        expect([inFlight.status, queued.status]).toEqual([200, 200]);
        posted.push({
          ...player,
          inFlight: inFlight.data.id,
          queued: queued.data.id,
          hash: await signedHash(first, player.token, inFlight.data.id),
        });
      }
      await first.close();
      first = undefined;
      // While the server is down the node loses one transaction (as after its own restart) and mines the other.
      await t.testClient.dropTransaction({ hash: posted[0].hash });
      await t.testClient.setAutomine(true);
      await t.testClient.mine({ blocks: 1 });
      expect([await sent(forgotten.wallet), await sent(minedWhileDown.wallet)]).toEqual([0, 1]);

      second = await startExecutorBackends(t, file);
      for (const player of posted) {
        const resumed = await settled(second, player.token, player.inFlight);
        expect([resumed.status, resumed.txHash]).toEqual(["mined", player.hash]);
        expect((await settled(second, player.token, player.queued)).status).toBe("mined");
        expect([await sent(player.wallet), await boxCount(player.wallet)]).toEqual([2, 2n]);
      }
    } finally {
      await t.testClient.setAutomine(true);
      await first?.close();
      await second?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Waits until the execution's first step is signed and stored, and returns its hash. */
async function signedHash(backend: ExecutorBackend, token: string, id: string): Promise<Hex> {
  for (;;) {
    const now = await backend.call<Execution>("GET", `/sso/actions/${id}`, undefined, token);
    const [step] = now.data.steps;
    if (step.status === "sent" && step.txHash) return step.txHash as Hex;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
