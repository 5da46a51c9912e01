/**
 * One server process per database. The executor signs for managed wallets, the store's minter forges paid boxes and
 * the indexer applies the chain: each assumes it is alone on its SQLite file, and two processes would sign for the
 * same wallets. The first process to start writes `<file>.lock`; another start on the file is refused while that
 * process runs. A lock left by a process that died (kill -9, a reboot) is taken over. SQLite files are not shared
 * between machines (SQLite does not support network file systems), so a process on this machine says enough.
 */
import fs from "node:fs";
import path from "node:path";

export class DatabaseInUseError extends Error {}

export interface ProcessLock {
  release(): void;
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

function holderOf(lockFile: string): Holder | null {
  try {
    const holder = JSON.parse(fs.readFileSync(lockFile, "utf8")) as Holder;
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : null;
  } catch {
    return null;
  }
}

const isAlive = (holder: Holder) => {
  const now = running(holder.pid);
  return now !== null && now.boot === holder.boot && now.start === holder.start;
};

/**
 * Takes the database's lock for this process, or throws DatabaseInUseError naming the process that holds it. This
 * process may take it again (the server takes it before anything else, and its backends take it when they start).
 */
export function lockDatabase(databaseFile: string): ProcessLock {
  const lockFile = `${path.resolve(databaseFile)}.lock`;
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const release = () => {
    if (holderOf(lockFile)?.pid === process.pid) fs.rmSync(lockFile, { force: true });
  };
  // Written whole first, then linked into place: the link fails while a lock exists, and nobody reads half a lock.
  const draft = `${lockFile}.${process.pid}`;
  fs.writeFileSync(draft, JSON.stringify(running(process.pid)));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(draft, lockFile);
        return { release };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = holderOf(lockFile);
      if (holder?.pid === process.pid) return { release };
      if (holder && isAlive(holder)) {
        throw new DatabaseInUseError(
          `Another server process (pid ${holder.pid}) is running on ${databaseFile}: run one server process per ` +
            "database, or give this one its own DATABASE_PATH.",
        );
      }
      // Left by a process that is gone, or unreadable: start afresh.
      fs.rmSync(lockFile, { force: true });
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
  throw new DatabaseInUseError(`Could not lock ${databaseFile}: another process keeps taking ${lockFile}.`);
}
