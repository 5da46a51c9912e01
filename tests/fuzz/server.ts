/**
 * Starts and stops the production build as its own process, for scripts that need a server of their own
 * (`npm run fuzz`, the crash test of `npm run bench`). Builds first when the build is missing.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stopStaleChain } from "../../contracts/chain";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Where its output goes. */
  logFile: string;
  /** The data directory (its database is `spark.db` there). */
  dataDir: string;
}

/** Same convention as remix.config.js and server.ts. */
export function ensureBuild(): void {
  const dir = process.env.REMIX_BUILD_DIR;
  if (fs.existsSync(path.join(ROOT, dir ? `${dir}/index.js` : "build/index.js"))) return;
  console.log("No production build yet: building it (remix build).");
  const result = spawnSync("npx", ["remix", "build"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error("remix build failed");
}

/**
 * Runs tests/e2e/server.ts (the production build, rate limits ×100, its own chain) on `port`, with a fresh
 * data directory unless `keepData`. Resolves once /healthz answers.
 */
export async function startServer({
  port,
  chainPort,
  keepData = false,
  tag,
}: {
  port: number;
  chainPort: number;
  keepData?: boolean;
  tag: string;
}): Promise<ServerProcess> {
  const dataDir = path.join(ROOT, `data/e2e-${port}`);
  // A chain left running by a killed earlier run would hold the port; its pid file goes with a fresh data folder.
  if (!keepData) await stopStaleChain(path.join(dataDir, "chain", "anvil-state.json"));
  const logFile = path.join(ROOT, `data/${tag}-${port}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  // A fresh start begins a fresh log; a restart on kept data adds to it.
  const log = fs.openSync(logFile, keepData ? "a" : "w");
  const child = spawn(process.execPath, ["--import", "tsx", "tests/e2e/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, E2E_PORT: String(port), E2E_CHAIN_PORT: String(chainPort), E2E_KEEP_DATA: keepData ? "1" : "0" },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { baseUrl, child, logFile, dataDir };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill("SIGKILL");
  throw new Error(`The server did not answer /healthz within 3 minutes; see ${logFile}`);
}

/** Stops the server gracefully (it stops its chain too) and waits for it to exit. */
export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}
