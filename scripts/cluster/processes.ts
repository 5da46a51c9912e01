/** The cluster's child processes (issue 27): waiting for them, stopping them, and never outliving the launcher. */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";

/** Polls `check` every `intervalMs` until it is truthy, or throws `what` at the deadline. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  { timeoutMs = 30_000, intervalMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError ? ` (last error: ${(lastError as Error).message})` : "";
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A detached watchdog: kills `pid` once this process is gone, so nothing outlives a launcher that was killed. */
export function watchdog(pid: number, signal = "KILL") {
  const guard = spawn(
    "sh",
    [
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${pid} 2>/dev/null; do sleep 0.5; done; kill -${signal} ${pid} 2>/dev/null`,
    ],
    {
      detached: true,
      stdio: "ignore",
    },
  );
  guard.unref();
  return guard;
}

export function exitedAlready(child: ChildProcess) {
  return child.exitCode !== null || child.signalCode !== null;
}

export async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs = 10_000) {
  if (exitedAlready(child)) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * redis-server without persistence on `port`, answering PING; its output goes to `logFile`. The cluster's Redis and
 * the Redis suites' throwaway ones (tests/unit/redis-server.ts) both start here.
 */
export async function startRedis(port: number, logFile: string): Promise<{ url: string; stop(): Promise<void> }> {
  const log = fs.openSync(logFile, "a");
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", os.tmpdir()],
    { stdio: ["ignore", log, log] },
  );
  fs.closeSync(log);
  const exited = once(child, "exit");
  let missing = false;
  child.once("error", (error: NodeJS.ErrnoException) => (missing = error.code === "ENOENT"));
  if (child.pid) watchdog(child.pid);
  await waitFor(
    `redis-server on port ${port}`,
    async () => {
      if (missing)
        throw new Error('redis-server is not installed: install Debian\'s "redis-server" (apt-get install redis-server), or set REDIS_URL');
      if (exitedAlready(child)) throw new Error(`redis-server exited: ${fs.readFileSync(logFile, "utf8").slice(-1000)}`);
      return ping(port);
    },
    { timeoutMs: 10_000, intervalMs: 50 },
  );
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child, exited) };
}

/** Whether a Redis answers PING on `port`. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.setTimeout(1_000);
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Whether the server answers its /healthz. */
export async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

export function tail(file: string, lines: number): string {
  if (!fs.existsSync(file)) return "(no log)";
  return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
}
