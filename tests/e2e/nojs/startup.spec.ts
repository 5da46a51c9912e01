/**
 * Server start-up, each test on its own server process (not the suite's): a restart after kill -9, the refusal to
 * start a public deployment on dev secrets, and a public deployment's empty start. No browser: only HTTP, the
 * database file and process exits.
 */
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import SQLite from "better-sqlite3";
import { stopStaleChain } from "../../../contracts/chain";
import { DEMO_BROWSER_ACCOUNT, DEMO_PASSWORD } from "../../../core/demo";
import { healthy, ownPorts as ports, startServer as startOwnServer, type OwnServer as Server } from "../own-server";

// Each test's server has ports of its own next to the suite's, so suites on other ports never collide with these.
const RESTART = ports(1);
const baseUrl = `http://127.0.0.1:${RESTART.port}`;

/** A server of its own on these ports (the restart test's by default). */
const startServer = (env: Record<string, string>, { port, chainPort } = RESTART) => startOwnServer({ port, chainPort, env });

/** Where tests/e2e/server.ts keeps a port's chain. */
const stateFileOf = (port: number) => path.resolve(`data/e2e-${port}/chain/anvil-state.json`);

/** The server last started on each port by this worker's tests. */
const running = new Map<number, Server>();
// Hooks run in every worker that ran a test of this file: only the worker that started a server cleans up, or the
// other test's worker would stop this one's orphaned chain between the kill and the restart.
test.afterAll(async () => {
  for (const [port, server] of running) {
    if (server.child.exitCode === null) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    // A failed run must not leave its chain holding the port for the next one.
    await stopStaleChain(stateFileOf(port));
  }
});

/** Starts a server on these ports, to be stopped with its chain after the file. */
function startTracked(env: Record<string, string>, at = RESTART): Server {
  const server = startServer(env, at);
  running.set(at.port, server);
  return server;
}

test("the server starts again after kill -9 (issue 10, item 8)", async ({ request }) => {
  test.setTimeout(90_000);
  let server = startTracked({});
  await healthy(server);

  server.child.kill("SIGKILL");
  await server.exited;

  server = startTracked({ E2E_KEEP_DATA: "1" });
  await healthy(server);
  // Its anvil went with it (contracts/chain.ts's watchdog, or the next start's cleanup when the restart came first),
  // and kept the chain: the deployment is found again.
  expect(server.output()).toMatch(/contracts found from/);
  const page = await request.get(`${baseUrl}/marketplace`);
  expect(page.status()).toBe(200);

  // A second server on the same database would sign for the same wallets: it stops before touching anything.
  const second = startServer({ E2E_KEEP_DATA: "1" });
  const [code] = (await second.exited) as [number];
  expect(code).toBe(1);
  expect(second.output()).toContain(`Another server process (pid ${server.child.pid}) is running on`);
  expect((await request.get(`${baseUrl}/marketplace`)).status()).toBe(200);
});

test("a public deployment without its secrets refuses to start and names each one (issue 10, item 1)", async () => {
  const server = startServer({ PUBLIC_URL: "https://market.sparkera.example" }, ports(2));
  const [code] = (await server.exited) as [number];
  expect(code).toBe(1);
  for (const name of ["SESSION_SECRET", "WALLET_ENCRYPTION_KEY", "CLAIM_SIGNER_KEY", "SMTP_URL"]) {
    expect(server.output()).toContain(`- ${name}: is required when PUBLIC_URL is not a local address`);
  }
});

/** A public deployment with every secret it needs; the test checkout stands in for Stripe, and no mail is sent. */
const PUBLIC_DEPLOYMENT = {
  PUBLIC_URL: "https://sparkera.example",
  SESSION_SECRET: "startup-spec-session-secret-0123456789",
  WALLET_ENCRYPTION_KEY: "ab".repeat(32),
  CLAIM_SIGNER_KEY: "cd".repeat(32),
  STORE_MINTER_KEY: "ef".repeat(32),
  STRIPE_WEBHOOK_SECRET: "whsec_startup_spec_0123456789",
  STORE_TEST_CHECKOUT: "on",
  SMTP_URL: "smtp://127.0.0.1:1",
};

/** Starts a public deployment on an empty database; tells what the database holds and how the demo sign-in answers. */
async function startPublicDeployment(request: APIRequestContext, offset: number, env: Record<string, string> = {}) {
  const at = ports(offset);
  const url = `http://127.0.0.1:${at.port}`;
  const server = startTracked({ ...PUBLIC_DEPLOYMENT, ...env }, at);
  await healthy(server);
  const db = new SQLite(path.resolve(`data/e2e-${at.port}/spark.db`), { readonly: true, fileMustExist: true });
  const count = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  const held = { users: count("users"), listings: count("market_listings") };
  db.close();
  const signIn = await request.post(`${url}/login`, {
    form: { email: DEMO_BROWSER_ACCOUNT.email, password: DEMO_PASSWORD, redirectTo: "/home" },
    headers: { Origin: PUBLIC_DEPLOYMENT.PUBLIC_URL },
    maxRedirects: 0,
  });
  return { log: server.output(), held, signIn: signIn.status() };
}

test("a public deployment starts on an empty database with no user and no listing (issue 24, item 3)", async ({ request }) => {
  test.setTimeout(60_000);
  const { log, held, signIn } = await startPublicDeployment(request, 3);
  expect(held).toEqual({ users: 0, listings: 0 });
  // The README's demo password opens nothing.
  expect(signIn).toBe(400);
  expect(log).not.toContain("SEED_DEMO");
});

test("SEED_DEMO=on seeds a public deployment, and the start log warns about it (issue 24, item 3)", async ({ request }) => {
  test.setTimeout(60_000);
  const { log, held, signIn } = await startPublicDeployment(request, 4, { SEED_DEMO: "on" });
  expect(held.users).toBeGreaterThan(0);
  expect(held.listings).toBeGreaterThan(0);
  expect(signIn).toBe(302);
  expect(log).toContain("WARNING: SEED_DEMO=on on a public deployment (https://sparkera.example)");
});
