/**
 * A spec's own server process (tests/e2e/server.ts), apart from the suite's: for tests that kill it, restart it or
 * start it with another environment. One node process (no npx or tsx wrapper), so a signal hits the server itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

// Each spec's servers have ports of their own next to the suite's, so suites on other ports never collide with them.
const SUITE_PORT = Number(process.env.E2E_PORT ?? 3210);
const SUITE_CHAIN_PORT = Number(process.env.E2E_CHAIN_PORT ?? 8546);
/**
 * The ports `offset` after the suite's: 1–4 are the startup spec's, 5 the overload spec's, 6 the PostgreSQL
 * server's (playwright.config.ts).
 */
export const ownPorts = (offset: number) => ({ port: SUITE_PORT + offset, chainPort: SUITE_CHAIN_PORT + offset });

export interface OwnServer {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  exited: Promise<unknown>;
}

export function startServer({ port, chainPort, env = {} }: { port: number; chainPort: number; env?: Record<string, string> }): OwnServer {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/e2e/server.ts"], {
    env: { ...process.env, E2E_PORT: String(port), E2E_CHAIN_PORT: String(chainPort), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited: once(child, "exit") };
}

/** Waits for /healthz (40 s at most); throws with the server's output if it exits or never answers. */
export async function healthy(server: OwnServer): Promise<void> {
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited with ${server.child.exitCode}:\n${server.output()}`);
    const ok = await fetch(`${server.baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not answer within 40 s:\n${server.output()}`);
}

/** SIGTERM, and wait for the exit. */
export async function stopServer(server: OwnServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill("SIGTERM");
  await server.exited;
}
