/**
 * The drop bench's server (tests/bench/drop.ts): the app's production server (server.ts, in this process, as the e2e
 * harness runs it), plus a Unix socket in the data directory that only the bench opens, through which it
 *   - creates managed accounts with the SSO's own functions (user row, managed wallet, session), a thousand in seconds,
 *     where signing up through mail codes would take minutes: the purchases still go through the real HTTP API;
 *   - reads the executor's queue depth and, at the end, every execution and its steps;
 *   - tells its CPU time and event loop use (the drop's cost, less at the mercy of a shared machine than its durations);
 *   - takes a CPU profile of this process on request (DROP_PROFILE).
 * The production server has no such socket.
 */
import fs from "node:fs";
import http from "node:http";
import inspector from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { parseEnv } from "~/services/env.server";

const { backends } = await import("../../server");
if (!backends) throw new Error("the drop bench needs the embedded backends");
const { createSsoCore } = await import("../../backend/sso/core");

const env = parseEnv();
const core = createSsoCore({
  store: backends.store,
  options: {
    walletEncryptionKey: env.walletEncryptionKey,
    claimSignerKey: env.claimSignerKey,
    chainId: env.CHAIN_ID,
    signInDomain: new URL(env.publicUrl).host,
    publicUrl: env.publicUrl,
    tokenTtlSeconds: 60 * 60 * 24,
    log: { info: () => {}, warn: () => {}, error: () => {} },
  } as Parameters<typeof createSsoCore>[0]["options"],
});

export interface DropAccount {
  userId: number;
  email: string;
  token: string;
  wallet: `0x${string}`;
}

async function createAccounts(prefix: string, from: number, count: number): Promise<DropAccount[]> {
  const accounts: DropAccount[] = [];
  for (let i = from; i < from + count; i++) {
    const email = `${prefix}-${i}@bench.invalid`;
    // No password sign-in is ever tried: the session is issued below.
    const user = await core.users.insert(email, "bench:no-password", null);
    if (!user) throw new Error(`${email} exists`);
    const bound = await core.wallets.createManagedWallet(user);
    const { token } = await core.sessions.issue(user.id, "email");
    accounts.push({ userId: user.id, email, token, wallet: bound.wallet_address as `0x${string}` });
  }
  return accounts;
}

async function executions() {
  const { db } = backends!.store;
  const rows = await db
    .selectFrom("action_executions")
    .select(["seq", "id", "user_id", "wallet", "status", "error", "created_at", "updated_at"])
    .execute();
  const steps = await db.selectFrom("action_steps").select(["execution_seq", "position", "kind", "status", "tx_hash", "nonce"]).execute();
  return { rows, steps };
}

const profiler = new inspector.Session();

const socket = path.join(path.dirname(env.DATABASE_PATH), "drop.sock");
fs.rmSync(socket, { force: true });
const server = http.createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  try {
    const input = (body ? JSON.parse(body) : {}) as { prefix?: string; from?: number; count?: number };
    let answer: unknown;
    if (req.url === "/accounts") answer = await createAccounts(input.prefix ?? "player", input.from ?? 0, input.count ?? 1);
    else if (req.url === "/queue") answer = await backends!.executorQueue!();
    else if (req.url === "/executions") answer = await executions();
    else if (req.url === "/usage") answer = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
    else if (req.url === "/profile/start") {
      profiler.connect();
      await profiler.post("Profiler.enable");
      answer = await profiler.post("Profiler.start");
    } else if (req.url === "/profile/stop") {
      const { profile } = await profiler.post("Profiler.stop");
      fs.writeFileSync((input as { file: string }).file, JSON.stringify(profile));
      profiler.disconnect();
      answer = {};
    } else throw new Error(`no ${req.url}`);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  } catch (error) {
    res.writeHead(500, { "content-type": "text/plain" }).end(String((error as Error).stack ?? error));
  }
});
await new Promise<void>((resolve) => server.listen(socket, resolve));
server.unref();
