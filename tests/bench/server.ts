/**
 * The benches' servers: the app's production server (server.ts) on a database of the bench's choosing, started in a
 * process group of its own (tsx, node and the local chain it starts) and stopped with it.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The newest modification time of the files under `dirs`. */
function newestChange(dirs: string[]): number {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * The app's production build (REMIX_BUILD_DIR or build/); made when missing or older than the app's sources (a stale
 * build measures old code, and mixes it with the new server.ts).
 */
export function ensureBuild(): string {
  const dir = process.env.REMIX_BUILD_DIR ?? "build";
  const built = path.join(dir, "index.js");
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= newestChange(["app", "core"])) return dir;
  console.log(`no build in ${dir}, or one older than the sources: building …`);
  const result = spawnSync("npx", ["remix", "build"], { stdio: "inherit", env: process.env });
  if (result.status !== 0) throw new Error("remix build failed");
  return dir;
}

/** The floor's build (tests/bench/floor: one trivial page, no root loader or layout), made afresh: it takes a second. */
export function buildFloor(): string {
  const result = spawnSync("npx", ["remix", "build", "tests/bench/floor"], { stdio: ["ignore", "ignore", "inherit"], env: process.env });
  if (result.status !== 0) throw new Error("the floor's remix build failed");
  return "data/bench-floor";
}

export interface BenchServer {
  base: string;
  stop(): void;
  /** What the server wrote to stdout and stderr so far. */
  output(): string;
}

export async function startServer({
  port,
  chainPort,
  database,
  buildDir,
  script = "server.ts",
  env = {},
  cwd,
}: {
  port: number;
  chainPort: number;
  database: string;
  /** Another build than the app's (the floor's). */
  buildDir?: string;
  /** Another entry than server.ts that starts it (tests/bench/drop-server.ts adds the drop bench's socket). */
  script?: string;
  env?: Record<string, string>;
  /** Another checkout to serve from (tests/bench/render-ab.ts: a commit's server.ts and build side by side). */
  cwd?: string;
}): Promise<BenchServer> {
  const base = `http://127.0.0.1:${port}`;
  const server = spawn("npx", ["tsx", script], {
    env: {
      ...process.env,
      ...(buildDir ? { REMIX_BUILD_DIR: buildDir } : {}),
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_PATH: database,
      CHAIN_PORT: String(chainPort),
      REQUEST_LOG: "off",
      // The loop is one client address; the limits are not what is measured.
      RATE_LIMIT_MULTIPLIER: "1000000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    cwd,
  });
  let output = "";
  server.stdout!.on("data", (chunk) => (output += chunk));
  server.stderr!.on("data", (chunk) => (output += chunk));
  const stop = () => {
    // Its own process group: tsx, node and the local chain it started.
    if (server.pid && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${output}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, stop, output: () => output };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error(`server did not start:\n${output}`);
}

/** A fresh directory for one server's database and chain (data/ is ignored by git). */
export function runDir(name: string): string {
  const dir = path.resolve("data", name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
