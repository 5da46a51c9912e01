/**
 * Managed wallets' on-chain actions posted to all three servers at once (issue 27): the executor runs in one process,
 * so each wallet's nonces are contiguous and each action runs once, also when its idempotency key is replayed on
 * another server. Then the process holding the executor is killed (-9) mid-run: another takes the role over, every
 * action is mined, and nothing is sent twice.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEther } from "viem";
import type { Execution } from "~core/api/actions";
import { blindBoxAbi } from "../../contracts/generated/abi";
import {
  type TestAccount,
  chain,
  createAccount,
  killServer,
  superviseCluster,
  replaceServer,
  roleHolder,
  servers,
  sharedDatabase,
  waitFor,
} from "./support";
import type { ServerInfo } from "./ports";

superviseCluster();
const database = sharedDatabase();

const WALLETS = 3;
/** A cheap action of one transaction: one Standard loot box paid in BNB (no approval step). */
const BUY_ONE = { action: "lootbox.buy", params: { typeBox: 4, currency: "BNB", quantity: 1 } } as const;

interface Posted {
  account: TestAccount;
  key: string;
  server: ServerInfo;
}

const post = ({ account, key, server }: Posted) =>
  account.client.request<Execution>(server.url, "/sso/actions", { token: account.token, json: { ...BUY_ONE, idempotencyKey: key } });

describe("the executor across processes", () => {
  const accounts: TestAccount[] = [];

  /** Posts `perWallet` actions for each wallet, spread so each wallet's go to every server; their execution ids. */
  async function postActions(list: ServerInfo[], perWallet: number, { replays = 0 } = {}) {
    const posts: Posted[] = Array.from({ length: perWallet * WALLETS }, (_, i) => ({
      account: accounts[i % WALLETS],
      key: `multi-${randomBytes(8).toString("hex")}-${i}`,
      server: list[(i + Math.floor(i / WALLETS)) % list.length],
    }));
    // Replays of the first keys on another server, racing their originals.
    const again = posts.slice(0, replays).map((original) => ({ ...original, server: list[(original.server.index + 1) % list.length] }));
    const answers = await Promise.all([...posts, ...again].map(post));
    const summary = answers.map((answer, i) => `#${i}: ${answer.status} ${answer.body.msg}`).join("\n");
    for (const answer of answers) expect(answer.status, summary).toBe(200);
    const ids = answers.slice(0, posts.length).map((answer) => answer.body.data!.id);
    // A replayed key answers its execution, wherever it lands.
    answers.slice(posts.length).forEach((answer, i) => expect(answer.body.data!.id).toBe(ids[i]));
    return ids;
  }

  /** Waits until every execution is final, and expects each mined. */
  async function allMined(ids: string[], timeoutMs = 60_000) {
    const store = database();
    const rows = await waitFor(
      `${ids.length} actions to be final`,
      async () => {
        const found = await store.db.selectFrom("action_executions").select(["id", "status", "error"]).where("id", "in", ids).execute();
        return found.length === ids.length && found.every((row) => row.status === "mined" || row.status === "failed") ? found : null;
      },
      { timeoutMs, intervalMs: 250 },
    );
    const failed = rows.filter((row) => row.status !== "mined");
    expect(failed.map((row) => `${row.id}: ${row.error}`)).toEqual([]);
  }

  /** Each wallet: its steps' nonces 0 … n − 1, once each, every one mined; the chain saw n transactions and n boxes. */
  async function booksBalance(expectedPerWallet: number) {
    const store = database();
    const { publicClient, contracts } = chain();
    for (const account of accounts) {
      const executions = await store.db
        .selectFrom("action_executions")
        .select(["seq", "status"])
        .where("wallet", "=", account.wallet)
        .execute();
      expect(executions).toHaveLength(expectedPerWallet);
      const steps = await store.db
        .selectFrom("action_steps")
        .innerJoin("action_executions", "action_executions.seq", "action_steps.execution_seq")
        .select(["action_steps.nonce", "action_steps.status", "action_steps.tx_hash"])
        .where("action_executions.wallet", "=", account.wallet)
        .execute();
      expect(steps).toHaveLength(expectedPerWallet);
      const nonces = steps.map((step) => Number(step.nonce)).sort((a, b) => a - b);
      expect(nonces, `${account.wallet}'s nonces`).toEqual(Array.from({ length: expectedPerWallet }, (_, i) => i));
      expect(steps.every((step) => step.status === "mined" && step.tx_hash)).toBe(true);
      expect(new Set(steps.map((step) => step.tx_hash)).size).toBe(expectedPerWallet);
      // Nothing else was sent from the wallet, and each purchase ran once.
      expect(await publicClient.getTransactionCount({ address: account.wallet })).toBe(expectedPerWallet);
      expect(await publicClient.getTransactionCount({ address: account.wallet, blockTag: "pending" })).toBe(expectedPerWallet);
      const [boxIds] = await publicClient.readContract({
        address: contracts.box,
        abi: blindBoxAbi,
        functionName: "queryUserBoxes",
        args: [account.wallet],
      });
      expect(boxIds).toHaveLength(expectedPerWallet);
    }
  }

  it("runs 30 actions from three servers once each, replays included, with contiguous nonces", async () => {
    const list = await servers();
    const { testClient } = chain();
    for (let i = 0; i < WALLETS; i++) {
      const account = await createAccount(list[i % list.length].url, { tag: "executor" });
      await testClient.setBalance({ address: account.wallet, value: parseEther("10") });
      accounts.push(account);
    }
    const ids = await postActions(list, 10, { replays: 10 });
    await allMined(ids);
    await booksBalance(10);
  });

  it("hands the executor over when its holder is killed mid-run: every action mined, nothing sent twice", async () => {
    expect(accounts, "the first test's wallets").toHaveLength(WALLETS);
    const holder = await roleHolder("executor");
    const list = await servers();
    const ids = await postActions(list, 5, { replays: 3 });
    const store = database();
    const pending = await store.db
      .selectFrom("action_executions")
      .select("id")
      .where("id", "in", ids)
      .where("status", "!=", "mined")
      .execute();
    // Otherwise the kill would prove nothing: the queues must still be running when their holder dies.
    expect(pending.length, "actions still unmined when the holder is killed").toBeGreaterThan(0);
    await killServer(holder.index);
    console.info(`multi: killed server ${holder.index} (the executor) with ${pending.length} of ${ids.length} actions not yet mined`);

    const successor = await roleHolder("executor", { other: holder.index, timeoutMs: 30_000 });
    expect(successor.index).not.toBe(holder.index);
    await Promise.all([allMined(ids), replaceServer(holder.index)]);
    await booksBalance(15);
  });
});
