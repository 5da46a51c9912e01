/**
 * Server start-up, each test on its own server process (not the suite's): a restart after kill -9, and the
 * refusal to start a public deployment on dev secrets. No browser: only HTTP and process exits.
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import { stopStaleChain } from "../../../contracts/chain";
import { healthy, startServer as startOwnServer, stopServer, type OwnServer } from "../own-server";

const PORT = 3299;
const CHAIN_PORT = 8599;
const baseUrl = `http://127.0.0.1:${PORT}`;
// Where tests/e2e/server.ts keeps this port's chain.
const stateFile = path.resolve(`data/e2e-${PORT}/chain/anvil-state.json`);

const startServer = (env: Record<string, string>) => startOwnServer({ port: PORT, chainPort: CHAIN_PORT, env });

let running: OwnServer | undefined;
// Hooks run in every worker that ran a test of this file: only the worker that started a server cleans up, or the
// other test's worker would stop this one's orphaned chain between the kill and the restart.
test.afterAll(async () => {
  if (!running) return;
  await stopServer(running);
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
  const server = startOwnServer({ port: 3298, chainPort: 8598, env: { PUBLIC_URL: "https://market.sparkera.example" } });
  const [code] = (await server.exited) as [number];
  expect(code).toBe(1);
  for (const name of ["SESSION_SECRET", "WALLET_ENCRYPTION_KEY", "CLAIM_SIGNER_KEY", "SMTP_URL"]) {
    expect(server.output()).toContain(`- ${name}: is required when PUBLIC_URL is not a local address`);
  }
});
