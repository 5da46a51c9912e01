/**
 * Server start-up, each test on its own server process (not the suite's): a restart after kill -9, and the
 * refusal to start a public deployment on dev secrets. No browser: only HTTP and process exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { stopStaleChain } from "../../../contracts/chain";

const PORT = 3299;
const CHAIN_PORT = 8599;
const baseUrl = `http://127.0.0.1:${PORT}`;
// Where tests/e2e/server.ts keeps this port's chain.
const stateFile = path.resolve(`data/e2e-${PORT}/chain/anvil-state.json`);

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}

/** The e2e server as one node process (no npx or tsx wrapper), so SIGKILL hits the server itself. */
function startServer(env: Record<string, string>): Server {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/e2e/server.ts"], {
    env: { ...process.env, E2E_PORT: String(PORT), E2E_CHAIN_PORT: String(CHAIN_PORT), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: once(child, "exit") };
}

async function healthy(server: Server): Promise<void> {
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited with ${server.child.exitCode}:\n${server.output()}`);
    const ok = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not answer within 40 s:\n${server.output()}`);
}

let running: Server | undefined;
// Hooks run in every worker that ran a test of this file: only the worker that started a server cleans up, or the
// other test's worker would stop this one's orphaned chain between the kill and the restart.
test.afterAll(async () => {
  if (!running) return;
  if (running.child.exitCode === null) {
    running.child.kill("SIGTERM");
    await running.exited;
  }
  // A failed run must not leave its chain holding the port for the next one.
  await stopStaleChain(stateFile);
});

test("the server starts again after kill -9 (issue 10, item 8)", async ({ request }) => {
  test.setTimeout(90_000);
  running = startServer({});
  await healthy(running);

  running.child.kill("SIGKILL");
  await running.exited;

  running = startServer({ E2E_KEEP_DATA: "1" });
  await healthy(running);
  expect(running.output()).toMatch(/stopped a stale anvil/);
  const page = await request.get(`${baseUrl}/marketplace`);
  expect(page.status()).toBe(200);

  // A second server on the same database would sign for the same wallets: it stops before touching anything.
  const second = startServer({ E2E_KEEP_DATA: "1" });
  const [code] = (await second.exited) as [number];
  expect(code).toBe(1);
  expect(second.output()).toContain(`Another server process (pid ${running.child.pid}) is running on`);
  expect((await request.get(`${baseUrl}/marketplace`)).status()).toBe(200);
});

test("a public deployment without its secrets refuses to start and names each one (issue 10, item 1)", async () => {
  const server = startServer({ E2E_PORT: "3298", E2E_CHAIN_PORT: "8598", PUBLIC_URL: "https://market.sparkera.example" });
  const [code] = (await server.exited) as [number];
  expect(code).toBe(1);
  for (const name of ["SESSION_SECRET", "WALLET_ENCRYPTION_KEY", "CLAIM_SIGNER_KEY", "SMTP_URL"]) {
    expect(server.output()).toContain(`- ${name}: is required when PUBLIC_URL is not a local address`);
  }
});
