/**
 * One anvil process, as the local chain and the tests start it: the platform binary, a watchdog that stops it when
 * its starter dies, and a scratch directory that goes with it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The platform binary from @foundry-rs/anvil's optional dependency. Spawned directly rather than through
 * node_modules/.bin/anvil: that wrapper re-raises SIGTERM on itself at once, so it exits before anvil has
 * finished dumping its state and "stopped" would not mean "state on disk".
 */
function anvilBinary(): string {
  const os = { linux: "linux", darwin: "darwin", win32: "win32" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  const binary = path.join(
    repoRoot,
    "node_modules",
    "@foundry-rs",
    `anvil-${os}-${arch}`,
    "bin",
    process.platform === "win32" ? "anvil.exe" : "anvil",
  );
  if (!os || !arch || !fs.existsSync(binary)) {
    throw new Error(`anvil binary not found at ${binary}; run npm install (package @foundry-rs/anvil)`);
  }
  return binary;
}

/**
 * The watchdog, run as `node -e WATCHDOG <anvil pid> <scratch dir>`: its stdin is a pipe from anvil's starter, which
 * nothing ever writes to. The pipe reaches EOF only when the starter is gone, however it died (kill -9 included: the
 * kernel closes its end), and then anvil gets SIGTERM, so it still dumps its state before it exits and frees the port;
 * once anvil is gone, its scratch goes too. A zombie counts as gone: the orphaned anvil's new parent may never reap
 * it, but it holds no port.
 */
const ANVIL_WATCHDOG = `
const pid = Number(process.argv[1]);
const gone = () => {
  try {
    return require("node:fs").readFileSync("/proc/" + pid + "/stat", "utf8").split(") ").pop().startsWith("Z");
  } catch {
    try { process.kill(pid, 0); return false; } catch { return true; }
  }
};
const signal = (name) => { try { process.kill(pid, name); } catch {} };
process.stdin.resume();
process.stdin.on("end", () => {
  signal("SIGTERM");
  const killAt = Date.now() + 15000;
  setInterval(() => {
    if (gone()) {
      require("node:fs").rmSync(process.argv[2], { recursive: true, force: true });
      process.exit(0);
    }
    if (Date.now() > killAt) signal("SIGKILL");
  }, 50);
});
`;

/**
 * Starts the watchdog of anvil `pid` (ANVIL_WATCHDOG). Detached, in a process group of its own: a terminal's Ctrl-C
 * reaches the server and anvil, and the server's own stop handles that. Node opens its other files close-on-exec,
 * so anvil and any other child never hold the pipe's write end open after the starter is gone.
 */
function startWatchdog(pid: number, scratch: string, log: (message: string) => void): ChildProcess {
  const { NODE_OPTIONS: _loaders, ...env } = process.env;
  const watchdog = spawn(process.execPath, ["-e", ANVIL_WATCHDOG, String(pid), scratch], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
    // No --import loaders (tsx): the watchdog is plain JavaScript.
    env,
  });
  watchdog.on("error", (error) => log(`anvil watchdog failed (${error.message}): a killed server would leave anvil running`));
  return watchdog;
}

export async function rpcChainId(rpcUrl: string): Promise<number | null> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result ? Number(body.result) : null;
  } catch {
    return null;
  }
}

/** A live process's command line and parent, from Linux's /proc; null when it is gone or a zombie (or no /proc). */
export function processInfo(pid: number): { argv: string[]; ppid: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid ...", where comm may hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (state === "Z") return null;
    return { argv: fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"), ppid: Number(ppid) };
  } catch {
    return null;
  }
}

const SCRATCH_PREFIX = "anvil-";

/**
 * Removes the scratch of anvils whose starter and watchdog were both killed (kill -9 of a test run's process group):
 * nothing else would. Named after the starter's pid, a scratch is left alone while that process lives or while an
 * anvil still works in it (an orphan that stopStaleChain has yet to stop).
 */
function removeAbandonedScratch(): void {
  // Without /proc (not Linux) a live starter cannot be told from a dead one.
  if (!fs.existsSync("/proc/self")) return;
  const tmp = os.tmpdir();
  const inUse = new Set(
    livePids().flatMap((pid) => {
      const info = processInfo(pid);
      const at = info?.argv.indexOf("--cache-path") ?? -1;
      return at > 0 ? [path.dirname(info!.argv[at + 1])] : [];
    }),
  );
  for (const name of fs.readdirSync(tmp)) {
    const starter = new RegExp(`^${SCRATCH_PREFIX}(\\d+)-`).exec(name)?.[1];
    const dir = path.join(tmp, name);
    if (!starter || processInfo(Number(starter)) || inUse.has(dir)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function livePids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export interface AnvilNode {
  rpcUrl: string;
  pid: number;
  /** anvil's scratch directory: the file it reports its address in, and the past states it moves out of memory. */
  scratch: string;
  /** Sends SIGTERM (anvil then dumps any state) and resolves once the process has exited. */
  stop(): Promise<void>;
}

export interface SpawnAnvilOptions {
  host: string;
  port: number;
  chainId: number;
  args: string[];
  onSpawn?: (pid: number) => void;
  onStop?: () => void;
  log: (message: string) => void;
}

/** Starts anvil and resolves once it answers with its chain id; a node that does not come up is stopped again. */
export async function spawnAnvil({ host, port, chainId, args, onSpawn, onStop, log }: SpawnAnvilOptions): Promise<AnvilNode> {
  const rpcUrl = `http://${host}:${port}`;
  removeAbandonedScratch();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `${SCRATCH_PREFIX}${process.pid}-`));
  // Written by anvil once it is listening, and never when the port was taken: a node of another run that answers on
  // the same port (two free-port picks that met) is not mistaken for this one.
  const listening = path.join(scratch, "listening.json");
  // anvil moves past states out of memory into files (about 200 KB a block) and leaves them behind when it stops, in
  // ~/.foundry unless told otherwise: a test run's thousands of blocks filled the disk. Here they go with the scratch.
  const states = path.join(scratch, "states");
  const child = spawn(
    anvilBinary(),
    [
      ...["--host", host, "--port", String(port), "--chain-id", String(chainId), ...args],
      ...["--config-out", listening, "--cache-path", states, "--silent"],
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const exited = once(child, "exit");
  if (child.pid) onSpawn?.(child.pid);
  const watchdog = child.pid ? startWatchdog(child.pid, scratch, log) : null;
  // Whenever this process stops anvil itself, the watchdog goes first: anvil gets one SIGTERM, and the watchdog never
  // signals a pid that anvil no longer holds.
  const stopWatchdog = () => watchdog?.kill("SIGKILL");
  // If the parent exits without calling stop(), anvil still gets SIGTERM and saves its state.
  const killOnExit = () => {
    stopWatchdog();
    child.kill("SIGTERM");
  };
  process.once("exit", killOnExit);

  const stop = async () => {
    process.off("exit", killOnExit);
    stopWatchdog();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(scratch, { recursive: true, force: true });
    onStop?.();
  };

  try {
    const deadline = Date.now() + 30_000;
    while (!fs.existsSync(listening) || (await rpcChainId(rpcUrl)) !== chainId) {
      if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}: ${stderr.trim()}`);
      if (Date.now() > deadline) throw new Error(`anvil did not answer on ${rpcUrl} within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { rpcUrl, pid: child.pid!, scratch, stop };
}
