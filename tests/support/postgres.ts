import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { roleLock } from "../../backend/db/postgres-roles";
import type { RoleName } from "../../backend/db/roles";
import { freePort } from "./ports";

/** The cluster's URL, set by the global setup (tests/support/postgres-setup.ts) for the test workers. */
export const CLUSTER_URL_ENV = "SPARK_TEST_PG_URL";

const NOT_INSTALLED =
  'PostgreSQL is not installed: the backend tests run on both engines; install Debian\'s "postgresql" package (apt-get install postgresql)';

const run = promisify(execFile);

/** The directory holding initdb and pg_ctl: on PATH, else Debian's newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin(searchPath = process.env.PATH ?? "", libRoot = "/usr/lib/postgresql"): string {
  const has = (dir: string) => ["initdb", "pg_ctl"].every((bin) => fs.existsSync(path.join(dir, bin)));
  // realpath: PATH may hold symlinks (/usr/local/bin/initdb), and pg_ctl finds `postgres` beside its real file.
  const onPath = searchPath.split(path.delimiter).find((dir) => dir && has(dir));
  if (onPath) return path.dirname(fs.realpathSync(path.join(onPath, "pg_ctl")));
  const versions = fs.existsSync(libRoot) ? fs.readdirSync(libRoot).filter((v) => has(path.join(libRoot, v, "bin"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error(NOT_INSTALLED);
  return path.join(libRoot, newest, "bin");
}

export interface PostgresClusterOptions {
  /** The port to listen on; a free one by default. */
  port?: number;
  /**
   * A directory that keeps the cluster across runs (`npm run cluster`): initdb runs only when it holds none, and
   * `stop` leaves it in place. By default a throwaway temp dir, removed on stop.
   */
  dir?: string;
}

/** A RAM-backed directory (Linux's /dev/shm) with this much room takes a throwaway cluster; else the temp dir. */
const RAM_ROOT = "/dev/shm";
const RAM_ROOM_NEEDED = 4 * 1024 ** 3;

/**
 * Where a throwaway cluster's files go. A backend run creates a hundred databases (about 2 GB with their WAL), and
 * CI's disk has been seen with less than that free: PostgreSQL then panics and every suite's connection drops at once.
 * RAM is plentiful here (24 GiB) and faster; the temp dir is the fallback where there is no such mount.
 */
export function throwawayRoot(ramRoot = RAM_ROOT, roomNeeded = RAM_ROOM_NEEDED): string {
  try {
    const stats = fs.statfsSync(ramRoot);
    fs.accessSync(ramRoot, fs.constants.W_OK);
    if (stats.bavail * stats.bsize >= roomNeeded) return ramRoot;
  } catch {
    // No such mount (macOS, a container without it): the temp dir.
  }
  return os.tmpdir();
}

/**
 * Starts a throwaway cluster in a temp dir on a port of its own (or a kept one in `dir`). initdb refuses to run as
 * root, so under root the binaries run as the `postgres` system user (Debian's package creates it), owning the dir.
 * A detached watchdog stops the cluster if this process dies without calling `stop` (Ctrl-C, a crash), so no
 * postgres outlives a run.
 */
export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const bin = findPostgresBin();
  const kept = options.dir !== undefined;
  const dir = kept ? path.resolve(options.dir!) : fs.mkdtempSync(path.join(throwawayRoot(), "spark-pg-"));
  if (kept) fs.mkdirSync(dir, { recursive: true });
  const data = path.join(dir, "data");
  const remove = () => {
    if (!kept) fs.rmSync(dir, { recursive: true, force: true });
  };
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run("chown", ["-R", "postgres:", dir]);
  const command = (name: string, args: string[]): [string, string[]] =>
    asRoot ? ["runuser", ["-u", "postgres", "--", path.join(bin, name), ...args]] : [path.join(bin, name), args];
  // cwd: the postgres user may not be able to enter the repository's directory.
  const pgRun = (name: string, args: string[]) => run(...command(name, args), { cwd: dir });

  try {
    // --no-sync: a throwaway cluster needs no fsync of its initial files.
    if (!fs.existsSync(path.join(data, "PG_VERSION"))) {
      await pgRun("initdb", ["-D", data, "--auth=trust", "--locale=C", "-E", "UTF8", "-U", "postgres", "--no-sync"]);
    }
    const port = options.port ?? (await freePort());
    // wal_level=minimal and a small max_wal_size: a throwaway cluster needs no archive or replica, and WAL_LOG
    // database copies otherwise leave WAL as large as the databases themselves until a checkpoint.
    const server =
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300 ` +
      "-c wal_level=minimal -c max_wal_senders=0 -c max_wal_size=64MB -c min_wal_size=32MB";
    // -l: without a log file the postmaster inherits pg_ctl's stdout and execFile would wait for it forever.
    await pgRun("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", server, "-w", "start"]);

    const [stopCmd, stopArgs] = command("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
    const watchdog = spawn(
      "sh",
      [
        "-c",
        `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done; ${[stopCmd, ...stopArgs].map(quote).join(" ")}${kept ? "" : `; rm -rf ${quote(dir)}`}`,
      ],
      { detached: true, stdio: "ignore", cwd: dir },
    );
    watchdog.unref();

    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async stop() {
        if (watchdog.pid !== undefined) process.kill(watchdog.pid);
        await pgRun("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
        remove();
      },
    };
  } catch (error) {
    const log = path.join(dir, "log");
    const detail = fs.existsSync(log) ? `\n${fs.readFileSync(log, "utf8")}` : "";
    remove();
    throw new Error(`could not start a PostgreSQL cluster: ${(error as Error).message}${detail}`, { cause: error });
  }
}

/**
 * A fresh database in this run's cluster; its URL. Empty, or a copy of `template` (a database no one is connected
 * to): PostgreSQL copies its files, which is much faster than writing the same rows again.
 */
export async function createTestDatabase(template?: string): Promise<string> {
  const clusterUrl = process.env[CLUSTER_URL_ENV];
  if (!clusterUrl) throw new Error(`${CLUSTER_URL_ENV} is unset: PostgreSQL tests run in the vitest project "backend-postgres"`);
  const name = `t_${randomBytes(8).toString("hex")}`;
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The backend pids holding a role's lease (backend/db/postgres-roles.ts), as another session sees them in pg_locks. */
export async function roleHolderPids(admin: pg.Client, role: RoleName): Promise<number[]> {
  const lock = roleLock(role);
  const { rows } = await admin.query<{ pid: number }>(
    // Advisory locks belong to a database: other suites' databases in the same cluster hold theirs too.
    "select pid from pg_locks where locktype = 'advisory' and granted and classid = $1::oid and objid = $2::oid and objsubid = 1 " +
      "and database = (select oid from pg_database where datname = current_database())",
    [lock.classid, lock.objid],
  );
  return rows.map((row) => row.pid);
}
