/**
 * One server process per database. The executor signs for managed wallets, the store's minter forges paid boxes and
 * the indexer applies the chain: each assumes it is alone on its SQLite file, and two processes would sign for the
 * same wallets. So the first process to start takes an exclusive flock(2) on the database file itself, and another
 * start on the file is refused while that process runs. The lock belongs to the file, not to a path: a symlink, a
 * hard link or a volume mounted elsewhere by another container on this kernel meet it too. The kernel drops it when
 * the process dies, kill -9 included. See docs/decisions/0007-database-lock-on-the-file.md.
 *
 * flock, not fcntl: SQLite's own locks on the file are fcntl byte ranges, which a flock lock never meets; a fcntl
 * lock of ours would conflict with them, and SQLite closing any descriptor of the file would drop it.
 *
 * `<file>.lock` names the holder for the refusal's message. Without flock(1) (macOS), that file is the lock itself,
 * on the resolved path: a symlink still meets it, a hard link does not.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Where the lock says it waits or took over (the backends pass their log). */
type Log = Pick<Console, "info" | "warn" | "error">;

export class DatabaseInUseError extends Error {}

export interface ProcessLock {
  release(): Promise<void>;
}

/** A process as the lock names it: on Linux with the boot and its start time, so a reused pid is not mistaken. */
interface Holder {
  pid: number;
  boot?: string;
  start?: string;
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** The process `pid` as it runs now, or null when it does not run. */
function running(pid: number): Holder | null {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  const stat = read(`/proc/${pid}/stat`);
  if (stat === undefined) return { pid };
  // "pid (comm) state ppid …": the start time is the 20th field after the command, which may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // A zombie has exited: its parent has not collected it yet.
  if (fields[0] === "Z") return null;
  return { pid, boot: read("/proc/sys/kernel/random/boot_id"), start: fields[19] };
}

function holderOf(pidFile: string): Holder | null {
  try {
    const holder = JSON.parse(fs.readFileSync(pidFile, "utf8")) as Holder;
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : null;
  } catch {
    return null;
  }
}

/** The process `pidFile` names, if it still runs (in another container it is not seen: null). */
function liveHolderOf(pidFile: string): Holder | null {
  const holder = holderOf(pidFile);
  const now = holder && running(holder.pid);
  return now && now.boot === holder.boot && now.start === holder.start ? holder : null;
}

function inUse(databaseFile: string, holder: Holder | null) {
  return new DatabaseInUseError(
    `Another server process${holder ? ` (pid ${holder.pid})` : ""} is running on ${databaseFile}: run one server ` +
      "process per database, or give this one its own DATABASE_PATH.",
  );
}

/** Written whole, then renamed into place: nobody reads half a pid file. */
function writePidFile(pidFile: string) {
  const draft = `${pidFile}.${process.pid}`;
  fs.writeFileSync(draft, JSON.stringify(running(process.pid)));
  fs.renameSync(draft, pidFile);
}

function removePidFileIfOurs(pidFile: string) {
  if (holderOf(pidFile)?.pid === process.pid) fs.rmSync(pidFile, { force: true });
}

type Attempt = { holder: ChildProcess } | "busy" | "no flock";

/**
 * Node has no flock: a shell child opens the file, locks it with flock(1) and then waits on its stdin, a pipe from
 * this process. When this process exits, however it dies, the pipe closes and the shell exits with the lock.
 */
function tryFlock(file: string): Promise<Attempt> {
  // detached: a Ctrl-C in the terminal must not end the lock while the server is still shutting down.
  const child = spawn("sh", ["-c", 'exec 9<"$1" && flock -n 9 && echo locked && read _', "sh", file], {
    stdio: "pipe",
    detached: true,
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.once("data", () => {
      child.stdout.destroy();
      child.stderr.destroy();
      // Held for as long as this process runs, without keeping it running.
      child.unref();
      (child.stdin as Socket).unref();
      resolve({ holder: child });
    });
    child.once("error", (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? resolve("no flock") : reject(error)));
    child.once("exit", (code) => {
      // flock -n says nothing when the lock is taken; sh answers 127 for a command it does not have.
      if (code === 1 && !stderr) resolve("busy");
      else if (code === 127) resolve("no flock");
      else reject(new Error(`Could not lock ${file}: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
}

/** A dead holder's shell exits a moment after it: a start right after a kill -9 waits that long for the lock. */
const DEAD_HOLDER_GRACE_MS = 500;

async function takeWithFlock(file: string, databaseFile: string, log: Log): Promise<(() => Promise<void>) | null> {
  const pidFile = `${file}.lock`;
  const deadline = Date.now() + DEAD_HOLDER_GRACE_MS;
  for (;;) {
    const attempt = await tryFlock(file);
    if (attempt === "no flock") return null;
    if (attempt !== "busy") {
      const { holder } = attempt;
      let releasing = false;
      holder.once("exit", () => {
        if (!releasing) log.error(`[db] lost the lock on ${databaseFile}: its holder (pid ${holder.pid}) exited`);
      });
      writePidFile(pidFile);
      return async () => {
        releasing = true;
        removePidFileIfOurs(pidFile);
        if (holder.exitCode !== null || holder.signalCode !== null) return;
        // Waits for the shell to exit, so that the lock is free once this resolves.
        holder.ref();
        const exited = new Promise((resolve) => holder.once("exit", resolve));
        holder.stdin!.end();
        await exited;
      };
    }
    const holder = liveHolderOf(pidFile);
    if (holder || Date.now() > deadline) throw inUse(databaseFile, holder);
    await sleep(20);
  }
}

/** The lock without flock(1): `<file>.lock` alone, taken over from a process that no longer runs. */
function takeWithPidFile(file: string, databaseFile: string): () => Promise<void> {
  const pidFile = `${file}.lock`;
  const release = async () => removePidFileIfOurs(pidFile);
  // Written whole first, then linked into place: the link fails while a lock exists.
  const draft = `${pidFile}.${process.pid}`;
  fs.writeFileSync(draft, JSON.stringify(running(process.pid)));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(draft, pidFile);
        return release;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = liveHolderOf(pidFile);
      if (holder) throw inUse(databaseFile, holder);
      // Left by a process that is gone, or unreadable: start afresh.
      fs.rmSync(pidFile, { force: true });
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
  throw new DatabaseInUseError(`Could not lock ${databaseFile}: another process keeps taking ${pidFile}.`);
}

async function take(file: string, databaseFile: string, log: Log) {
  const release = await takeWithFlock(file, databaseFile, log);
  if (release) return release;
  log.warn(`[db] flock(1) is missing: ${file}.lock alone keeps a second server off ${databaseFile}, not through a hard link`);
  return takeWithPidFile(file, databaseFile);
}

/**
 * This process's locks by the file's device and inode: the server takes the lock before anything else and its
 * backends take it again when they start, maybe by another path to the file. A file moved aside and created anew
 * at its path (server/local-data.ts) is another file, locked anew.
 */
const held = new Map<string, { takers: number; lock: Promise<() => Promise<void>> }>();

/**
 * Takes the database's lock for this process, or throws DatabaseInUseError naming the process that holds it where
 * that is known. This process may take it again; the file is unlocked once every taker has released it.
 */
export async function lockDatabase(databaseFile: string, log: Log = console): Promise<ProcessLock> {
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
  // SQLite takes an empty file for a new database: created here, the lock is on the very file SQLite opens.
  fs.closeSync(fs.openSync(databaseFile, "a"));
  const file = fs.realpathSync(databaseFile);
  const { dev, ino } = fs.statSync(file, { bigint: true });
  const key = `${dev}:${ino}`;
  let entry = held.get(key);
  if (!entry) {
    entry = { takers: 0, lock: take(file, databaseFile, log) };
    held.set(key, entry);
  }
  const taken = entry;
  taken.takers++;
  let unlock: () => Promise<void>;
  try {
    unlock = await taken.lock;
  } catch (error) {
    // Nothing was taken: the next start tries afresh.
    if (held.get(key) === taken) held.delete(key);
    throw error;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      if (--taken.takers > 0) return;
      if (held.get(key) === taken) held.delete(key);
      await unlock();
    },
  };
}
