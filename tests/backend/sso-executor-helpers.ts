/**
 * Shared by the sso-executor*.test.ts files: the embedded backends on a test chain (executor on), fresh managed
 * wallets funded by the deployer, and waiting for an execution to settle.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { type Address, parseEventLogs } from "viem";
import { gameTokenAbi, sparkCardAbi } from "../../contracts/generated/abi";
import { MarketDb, type Sql } from "../../backend/market/shared/db";
import type { BackendChain, BackendOptions } from "../../backend/types";
import type { ActionRequest, Execution } from "~core/api/actions";
import { backendChainOf, forgeBoxes, grantDeployer, type TestChain } from "../contracts/harness";
import { serveTestBackends } from "./harness";
import { register } from "./sso-helpers";
import { freshDatabase } from "./engine";
import { WEI_PER_TOKEN } from "~core/money";

export const WEI = WEI_PER_TOKEN;

export function chainOption(t: TestChain): BackendChain {
  return backendChainOf(t, { pollIntervalMs: 20 });
}

export type ExecutorBackend = Awaited<ReturnType<typeof startExecutorBackends>>;

/**
 * The embedded backends with the executor on `chain`, served over HTTP. `databaseFile` lets a test stop them
 * and start again on the same database (a restart); otherwise a temporary one is used and removed on close.
 */
export async function startExecutorBackends(chain: TestChain, databaseFile?: string, overrides: Partial<BackendOptions> = {}) {
  const dir = databaseFile ? null : fs.mkdtempSync(path.join(os.tmpdir(), "spark-executor-"));
  const served = await serveTestBackends(
    {
      chain: chainOption(chain),
      chainId: chain.deployment.chainId,
      assetManagerAddress: chain.deployment.contracts.assetManager,
      fireTokenAddress: chain.deployment.contracts.fire,
      ...overrides,
    },
    async () => databaseFile ?? (await freshDatabase(dir!)),
    () => dir && fs.rmSync(dir, { recursive: true, force: true }),
  );
  /** The market's chain indexer on this chain. */
  return { ...served, indexer: served.indexer! };
}

export interface Funds {
  /** Whole coins and tokens. */
  BNB?: bigint;
  USDT?: bigint;
  QUARK?: bigint;
  FIRE?: bigint;
  /** Boxes forged straight into the wallet, by box type. */
  boxes?: Partial<Record<number, number>>;
}

let players = 0;

/** A new account with a new managed wallet (GET /sso/createAddress), funded on chain by the deployer. */
export async function managedPlayer(b: ExecutorBackend, t: TestChain, funds: Funds = {}) {
  const email = `exec-${++players}-${Date.now()}@sparkera.test`;
  const { token } = await register(b, email);
  const created = await b.call<{ address: Address }>("GET", "/sso/createAddress", undefined, token);
  expect(created.status, created.msg).toBe(200);
  const wallet = created.data.address;
  await fund(t, wallet, funds);
  return { token, wallet, email };
}

export type ManagedPlayer = Awaited<ReturnType<typeof managedPlayer>>;

/** A managed player with 1 BNB for gas, and what `credit` puts in its game balances (in one market write). */
export async function creditedPlayer(b: ExecutorBackend, t: TestChain, credit: (tx: Sql, wallet: Address) => Promise<unknown>) {
  const player = await managedPlayer(b, t, { BNB: 1n });
  await new MarketDb(b.store).write((tx) => credit(tx, player.wallet));
  return player;
}

export async function fund(t: TestChain, wallet: Address, funds: Funds): Promise<void> {
  const c = t.deployment.contracts;
  await t.testClient.setBalance({ address: wallet, value: (funds.BNB ?? 0n) * WEI });
  for (const [currency, token] of [
    ["USDT", c.usdt],
    ["QUARK", c.quark],
    ["FIRE", c.fire],
  ] as const) {
    const amount = funds[currency];
    if (amount)
      await t.mined(t.deployer.writeContract({ address: token, abi: gameTokenAbi, functionName: "mint", args: [wallet, amount * WEI] }));
  }
  for (const [boxType, count] of Object.entries(funds.boxes ?? {})) {
    if (!count) continue;
    await grantDeployer(t, c.box, "MINTER_ROLE");
    await forgeBoxes(t, wallet, BigInt(boxType), count);
  }
}

export const postAction = (b: ExecutorBackend, token: string, body: ActionRequest | Record<string, unknown>) =>
  b.call<Execution>("POST", "/sso/actions", body, token);

/** Posts the player's action with a fresh idempotency key; the id of the execution the SSO accepted. */
export async function startAction(b: ExecutorBackend, player: ManagedPlayer, request: Omit<ActionRequest, "idempotencyKey">) {
  const posted = await postAction(b, player.token, { ...request, idempotencyKey: newKey() });
  expect(posted.status, posted.msg).toBe(200);
  return posted.data.id;
}

/** The SSO's signature (POST /sso/signOrder) of a chain order in the player's managed wallet. */
export async function ssoSignature(
  b: ExecutorBackend,
  player: ManagedPlayer,
  primaryType: "Listing" | "TradeOffer",
  domain: unknown,
  message: unknown,
): Promise<`0x${string}`> {
  const body = { primaryType, domain, message, idempotencyKey: newKey() };
  const signed = await b.call<{ signature: `0x${string}` }>("POST", "/sso/signOrder", body, player.token);
  expect(signed.status, signed.msg).toBe(200);
  return signed.data.signature;
}

/** The wallet's FIRE, in wei. */
export const fireBalance = (t: TestChain, wallet: Address) =>
  t.publicClient.readContract({ address: t.deployment.contracts.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet] });

/** Polls GET /sso/actions/:id until the execution is mined or failed. */
export async function settled(b: ExecutorBackend, token: string, id: string, timeoutMs = 20_000): Promise<Execution> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await b.call<Execution>("GET", `/sso/actions/${id}`, undefined, token);
    expect(answer.status, answer.msg).toBe(200);
    if (answer.data.status === "mined" || answer.data.status === "failed") return answer.data;
    if (Date.now() > deadline) throw new Error(`execution ${id} still ${answer.data.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A fresh idempotency key. */
export const newKey = () => `key-${crypto.randomUUID()}`;

/** Mints a SparkCard token with this attribute word (core/item-data.ts encodeItem) to the wallet; its id. */
export async function mintCard(t: TestChain, wallet: Address, word: bigint): Promise<bigint> {
  const card = { address: t.deployment.contracts.card, abi: sparkCardAbi } as const;
  await grantDeployer(t, card.address, "MINTER_ROLE");
  const receipt = await t.mined(t.deployer.writeContract({ ...card, functionName: "mint", args: [wallet, word] }));
  return parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "Transfer" })[0]!.args.tokenId;
}
