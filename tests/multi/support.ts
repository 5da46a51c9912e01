/**
 * The multi suite's side of the cluster (global-setup.ts launched it): its servers, killed and replaced through the
 * control server; which one holds a role (its /metrics gauge); HTTP clients that each speak from an address of their
 * own (X-Forwarded-For: the servers trust loopback), so the per-client rate limits keep tests apart; accounts made
 * through the real SSO API; the shared database, opened here as the servers open it; and the chain.
 */
import { randomBytes, randomInt } from "node:crypto";
import { afterAll, afterEach, beforeAll } from "vitest";
import {
  type Account,
  type Address,
  type Hash,
  type Hex,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Envelope } from "~core/api/envelope";
import type { ManagedWalletCreated, SignIn } from "~core/api/sso";
import { bindWalletMessage } from "~core/bind-message";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import { DEV_DEPLOYER_KEY } from "~core/demo";
import { prehashPassword } from "~core/password-hash";
import { openDatabase } from "../../backend/schema";
import type { BackendDb } from "../../backend/types";
import { MarketDb } from "../../backend/market/shared/db";
import { readDeployment, localChain, type Deployment } from "../../contracts/deployment";
import { type Role, rolesHeld } from "../../scripts/cluster/launch";
import { waitFor } from "../../scripts/cluster/processes";
import { type Stock, type StockedItem, stockWallet } from "../e2e/stock";
import { CLUSTER_INFO_ENV, type ClusterInfo, type ServerInfo } from "./ports";

export { waitFor };

export function clusterInfo(): ClusterInfo {
  const text = process.env[CLUSTER_INFO_ENV];
  if (!text) throw new Error(`${CLUSTER_INFO_ENV} is unset: the multi-process tests run in the vitest project "multi"`);
  return JSON.parse(text) as ClusterInfo;
}

async function control<T>(method: "GET" | "POST", path: string): Promise<T> {
  const response = await fetch(`${clusterInfo().controlUrl}${path}`, { method });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(`cluster control ${path}: ${body.error}`);
  return body;
}

/** The three server processes now (a replaced one keeps its index and port). */
export const servers = () => control<ServerInfo[]>("GET", "/servers");
/** kill -9 of server `index`; resolves once it is gone. */
export const killServer = (index: number) => control<ServerInfo[]>("POST", `/kill?index=${index}`);
/** A new process in the place of `index`, healthy. */
export const replaceServer = (index: number) => control<ServerInfo[]>("POST", `/replace?index=${index}`);

/** The server whose /metrics says it holds `role`, once exactly one live server does. */
export async function roleHolder(
  role: Role,
  { other, timeoutMs = 15_000 }: { other?: number; timeoutMs?: number } = {},
): Promise<ServerInfo> {
  const { metricsToken } = clusterInfo();
  return waitFor(
    `exactly one server to report spark_role_held{role="${role}"} 1${other === undefined ? "" : ` other than server ${other}`}`,
    async () => {
      const list = await servers();
      const held = await Promise.all(list.map((server) => rolesHeld(server.url, metricsToken)));
      const holders = list.filter((_, i) => held[i]?.has(role));
      return holders.length === 1 && holders[0].index !== other ? holders[0] : null;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

/**
 * Prints the servers' log tails after a failed test of the calling file, and after its tests puts a new process in
 * the place of any that is dead (killed by a test that failed before replacing it), so the next file has three.
 */
export function superviseCluster(): void {
  afterAll(async () => {
    await control("POST", "/heal");
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== "fail") return;
    const { text } = await control<{ text: string }>("GET", "/logs?lines=40").catch(() => ({
      text: "(the control server did not answer)",
    }));
    console.error(`\n===== server logs after "${task.name}" =====\n${text}\n`);
  });
}

/** The shared database, opened by the test process as the servers open it; for the calling file's tests. */
export function sharedDatabase(): () => BackendDb {
  let store: BackendDb | undefined;
  beforeAll(async () => {
    store = await openDatabase(clusterInfo().databaseUrl);
  });
  afterAll(async () => {
    await store?.close();
  });
  return () => {
    if (!store) throw new Error("the shared database is not open yet");
    return store;
  };
}

/** Game balances and items for `wallet`, written to the shared database with the ledger's own code (tests/e2e/stock.ts). */
export function stock(store: BackendDb, wallet: Address, what: Stock): Promise<StockedItem[]> {
  return stockWallet(new MarketDb(store), wallet, what);
}

/** A fresh client address, as a proxy in front would name it. */
export function clientIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export interface Answer<T = unknown> {
  status: number;
  body: Envelope<T>;
}

/** One virtual client: every request names `ip` in X-Forwarded-For. */
export class Client {
  constructor(readonly ip = clientIp()) {}

  async request<T>(
    baseUrl: string,
    path: string,
    { json, token, headers = {} }: { json?: unknown; token?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer<T>> {
    const response = await fetch(new URL(path, baseUrl), {
      method: json === undefined ? "GET" : "POST",
      headers: {
        "x-forwarded-for": this.ip,
        ...(token ? { [AUTH_TOKEN_HEADER]: token } : {}),
        ...(json === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    let body: Envelope<T>;
    try {
      body = JSON.parse(text) as Envelope<T>;
    } catch {
      body = { code: response.status, msg: text.slice(0, 300), data: null, success: false } as unknown as Envelope<T>;
    }
    return { status: response.status, body };
  }

  /** The data of a successful answer, else throws with its status and message. */
  async ok<T>(baseUrl: string, path: string, init: { json?: unknown; token?: string } = {}): Promise<T> {
    const answer = await this.request<T>(baseUrl, path, init);
    if (!answer.body.success) throw new Error(`${path} on ${baseUrl}: ${answer.status} ${answer.body.msg}`);
    return answer.body.data as T;
  }
}

export const PASSWORD = "Multi-pass-1";

export interface TestAccount {
  email: string;
  token: string;
  wallet: Address;
  /** A browser wallet's key; null for a managed wallet. */
  key: Hex | null;
  client: Client;
}

/**
 * Registers an account through the SSO API of `baseUrl` (the code from the dev outbox, which lives in the shared
 * database) and gives it a wallet: a managed one, or a fresh browser key bound with its signature.
 */
export async function createAccount(
  baseUrl: string,
  { wallet = "managed", tag = "multi" }: { wallet?: "managed" | "browser"; tag?: string } = {},
): Promise<TestAccount> {
  const client = new Client();
  const email = `${tag}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@sparkera.test`;
  await client.ok(baseUrl, "/basic/sendCode", { json: { Name: email } });
  const code = await waitFor(`the verification mail to ${email}`, async () => {
    const [mail] = await client.ok<{ body: string }[]>(baseUrl, `/dev/outbox.json?to=${encodeURIComponent(email)}`);
    return /verification code is (\d{6})/.exec(mail?.body ?? "")?.[1];
  });
  const { token } = await client.ok<SignIn>(baseUrl, "/basic/userInfo", {
    json: { UserName: email, Passsword: prehashPassword(PASSWORD), Code: code },
  });
  if (wallet === "managed") {
    const { address } = await client.ok<ManagedWalletCreated>(baseUrl, "/sso/createAddress", { token });
    return { email, token, wallet: getAddress(address), key: null, client };
  }
  const key = generatePrivateKey();
  const signer = privateKeyToAccount(key);
  const issuedAt = new Date().toISOString();
  const signature = await signer.signMessage({ message: bindWalletMessage({ userName: email, address: signer.address, issuedAt }) });
  await client.ok(baseUrl, "/sso/bindWalletWithAccount", {
    token,
    json: { BindType: 1, Address: signer.address, UserName: email, Signature: signature, IssuedAt: issuedAt },
  });
  return { email, token, wallet: signer.address, key, client };
}

/** The cluster's chain: reads, anvil's test methods, the deployer (an unlocked dev account) and wallets of the test's own. */
export function chain() {
  const { rpcUrl, deploymentFile } = clusterInfo();
  const deployment: Deployment | null = readDeployment(deploymentFile);
  if (!deployment) throw new Error(`no deployment at ${deploymentFile}`);
  const viemChain = localChain(rpcUrl);
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 50 });
  const testClient = createTestClient({ mode: "anvil", chain: viemChain, transport });
  const walletFor = (account: Account) => createWalletClient({ account, chain: viemChain, transport });
  return {
    deployment,
    contracts: deployment.contracts,
    publicClient,
    testClient,
    walletFor,
    deployer: walletFor(privateKeyToAccount(DEV_DEPLOYER_KEY)),
    /** Waits for a sent transaction and throws unless it succeeded. */
    async mined(hash: Hash | Promise<Hash>) {
      const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash, pollingInterval: 50, timeout: 30_000 });
      if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`);
      return receipt;
    },
  };
}

/** The i-th server, round the list (so a one-process run, MULTI_PROCESSES=1, works too). */
export function nth(list: ServerInfo[], i: number): ServerInfo {
  return list[i % list.length];
}

/** Spreads `count` requests over the servers: the i-th goes to server i mod N. */
export function spread<T>(list: ServerInfo[], count: number, send: (server: ServerInfo, i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => send(list[i % list.length], i)));
}
