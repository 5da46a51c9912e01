/**
 * A burst of page loads against a hung backend (issue 24, item 4): every loader times out at once and their renders
 * pile up on one event loop. Each answer must still be a readable page, the market's own (502) or one to retry (503),
 * never a 500, and /healthz must answer meanwhile. A server of its own, pointed at a backend that accepts and never
 * answers.
 */
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { stopStaleChain } from "../../../contracts/chain";
import { healthy, ownPorts, startServer, stopServer, type OwnServer } from "../own-server";

const { port: PORT, chainPort: CHAIN_PORT } = ownPorts(5);
const BURST = 300;
const stateFile = path.resolve(`data/e2e-${PORT}/chain/anvil-state.json`);

let server: OwnServer | undefined;
let backend: net.Server | undefined;
const hungSockets = new Set<net.Socket>();

test.afterAll(async () => {
  if (server) await stopServer(server);
  await stopStaleChain(stateFile);
  for (const socket of hungSockets) socket.destroy();
  await new Promise((resolve) => (backend ? backend.close(resolve) : resolve(undefined)));
});

test("300 parallel market loads against a hung backend get no 500, and /healthz still answers", async () => {
  test.setTimeout(90_000);
  backend = net.createServer((socket) => {
    hungSockets.add(socket);
    socket.on("close", () => hungSockets.delete(socket));
  });
  await new Promise<void>((resolve) => backend!.listen(0, "127.0.0.1", resolve));
  const backendUrl = `http://127.0.0.1:${(backend.address() as net.AddressInfo).port}`;
  server = startServer({
    port: PORT,
    chainPort: CHAIN_PORT,
    env: {
      SSO_API_URL: backendUrl,
      MARKET_API_URL: backendUrl,
      SESSION_SECRET: "overload-spec-session-secret",
      BACKEND_TIMEOUT_MS: "5000",
    },
  });
  await healthy(server);

  let firstAnswer!: () => void;
  const answering = new Promise<void>((resolve) => (firstAnswer = resolve));
  const page = async () => {
    const response = await fetch(`${server!.baseUrl}/marketplace/market`);
    firstAnswer();
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() };
  };
  const burst = Promise.all(Array.from({ length: BURST }, page));
  // Asked while the burst's pages are being rendered.
  await answering;
  const health = await fetch(`${server.baseUrl}/healthz`);
  const answers = await burst;

  const byStatus: Record<number, number> = {};
  for (const { status } of answers) byStatus[status] = (byStatus[status] ?? 0) + 1;
  console.log(`${BURST} loads: ${JSON.stringify(byStatus)}`);
  expect(health.status).toBe(200);
  expect(byStatus[500] ?? 0).toBe(0);
  for (const answer of answers) {
    // The market's own page for a backend too slow (502), or one to retry when the server was too busy (503).
    expect([502, 503]).toContain(answer.status);
    expect(answer.body).toMatch(/The server (took too long to answer|is busy right now)/);
    if (answer.status === 503) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }
});
