/**
 * Roles on PostgreSQL (roles.ts, decision 0013). Each role is a lease: a session advisory lock taken with
 * pg_try_advisory_lock on a connection of its own, outside the pool. Every process competes; the one that takes the
 * lock runs the role's work until it stops or its connection drops, and then PostgreSQL releases the lock with the
 * session, so another process takes the role at its next try (within `retryMs`). The same connection LISTENs on the
 * role's channel: the other processes hand work over with NOTIFY. Right after the lock, the same connection counts
 * up the role's fencing token: only a session that holds the lock writes it, so tokens rise with each taking.
 */
import os from "node:os";
import pg from "pg";
import { shortError } from "~core/rpc-errors";
import { lockKey } from "./postgres";
import { RESCAN_MS, type RoleName, type Roles, type RoleWork } from "./roles";

export interface PostgresRolesOptions {
  /** How often a process without the role tries to take it, and the holder checks its connection. */
  retryMs?: number;
  rescanMs?: number;
  log?: (message: string) => void;
}

/** How often a role's lock is tried for, by each process that does not hold it: the takeover time after a holder dies. */
export const LEASE_RETRY_MS = 1_000;

/** How long a lease connection may take to connect or answer before it counts as lost. */
const LINK_TIMEOUT_MS = 5_000;

const channelOf = (role: RoleName) => `spark_era_${role}`;

/** How a holder shows in pg_stat_activity (application_name), for whoever looks at pg_locks. */
export const HOLDER_NAME = `spark-era ${os.hostname()} ${process.pid}`.slice(0, 63);

/**
 * The advisory lock of a role: its key, and how pg_locks shows it (a bigint key splits into classid, the high half,
 * and objid, the low half, with objsubid 1).
 */
export function roleLock(role: RoleName): { key: string; classid: string; objid: string } {
  const key = lockKey(`spark-era:lease:${role}`);
  const unsigned = BigInt.asUintN(64, BigInt(key));
  return { key, classid: String(unsigned >> 32n), objid: String(unsigned & 0xffffffffn) };
}

interface Lease {
  held: boolean;
  work: RoleWork;
  confirm(): Promise<boolean>;
  close(): Promise<void>;
}

function lease(
  role: RoleName,
  work: RoleWork,
  config: pg.ClientConfig,
  { retryMs, rescanMs, log }: Required<PostgresRolesOptions>,
  attempted: () => void,
): Lease {
  const lock = roleLock(role);
  let client: pg.Client | null = null;
  let closed = false;
  let wake = () => {};
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake = () => {};
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
    });

  const state: Lease = {
    held: false,
    work,
    async confirm() {
      if (!state.held || !client) return false;
      try {
        const { rows } = await client.query<{ held: boolean }>(
          "select exists(select 1 from pg_locks where locktype = 'advisory' and pid = pg_backend_pid() and granted " +
            "and classid = $1::oid and objid = $2::oid and objsubid = 1) as held",
          [lock.classid, lock.objid],
        );
        return state.held && rows[0].held;
      } catch {
        return false;
      }
    },
    async close() {
      closed = true;
      wake();
      await loop;
    },
  };

  /** One connection's life: wait for the lock, hold it while the connection lives, stop the work when it ends. */
  async function session(): Promise<void> {
    // A stalled link must end the session here too, not only on the server: a holder cut off from the database stops
    // within these times instead of waiting for the kernel's two-hour keepalive.
    const connection = new pg.Client({
      ...config,
      application_name: HOLDER_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: LINK_TIMEOUT_MS,
      connectionTimeoutMillis: LINK_TIMEOUT_MS,
      query_timeout: LINK_TIMEOUT_MS,
    });
    let lost = false;
    const drop = () => {
      lost = true;
      state.held = false;
      wake();
    };
    connection.on("error", drop);
    connection.on("end", drop);
    connection.on("notification", (message) => {
      if (state.held && message.payload !== undefined) work.handOver?.(message.payload);
    });
    client = connection;
    try {
      await connection.connect();
      await connection.query(`listen ${channelOf(role)}`);
      for (;;) {
        const { rows } = await connection.query<{ taken: boolean }>("select pg_try_advisory_lock($1::bigint) as taken", [lock.key]);
        if (rows[0].taken) break;
        attempted();
        if (closed || lost) return;
        await nap(retryMs);
        if (closed || lost) return;
      }
      if (closed || lost) return;
      const { rows: fenced } = await connection.query<{ token: string }>(
        "insert into role_fences (role, token) values ($1, 1) on conflict (role) do update set token = role_fences.token + 1 " +
          "returning token",
        [role],
      );
      state.held = true;
      log(`[roles] took the ${role} role`);
      try {
        await work.start(Number(fenced[0].token));
        attempted();
        let scanned = Date.now();
        while (!closed && !lost) {
          await nap(Math.min(retryMs, rescanMs));
          if (closed || lost) break;
          // A dead connection shows here, and its lock went with it.
          await connection.query("select 1");
          if (work.rescan && Date.now() - scanned >= rescanMs) {
            scanned = Date.now();
            await Promise.resolve(work.rescan()).catch((error: unknown) => log(`[roles] the ${role} rescan failed: ${shortError(error)}`));
          }
        }
      } finally {
        state.held = false;
        await work.stop();
        log(`[roles] let go of the ${role} role`);
      }
    } finally {
      client = null;
      await connection.end().catch(() => undefined);
    }
  }

  const loop = (async () => {
    while (!closed) {
      try {
        await session();
      } catch (error) {
        if (!closed) log(`[roles] the ${role} lease's connection failed: ${shortError(error)}`);
      }
      attempted();
      if (!closed) await nap(retryMs);
    }
  })();
  return state;
}

/** Roles shared by every process on the database `config` names; hand-overs to another process go through `pool`. */
export function postgresRoles(config: pg.ClientConfig, pool: pg.Pool, options: PostgresRolesOptions = {}): Roles {
  const settings = {
    retryMs: options.retryMs ?? LEASE_RETRY_MS,
    rescanMs: options.rescanMs ?? RESCAN_MS,
    log: options.log ?? ((message: string) => console.log(message)),
  };
  const leases = new Map<RoleName, Lease>();
  return {
    async run(role, work) {
      if (leases.has(role)) throw new Error(`the ${role} role already runs`);
      await new Promise<void>((resolve) => leases.set(role, lease(role, work, config, settings, resolve)));
    },
    holds: (role) => leases.get(role)?.held ?? false,
    confirm: (role) => leases.get(role)?.confirm() ?? Promise.resolve(false),
    async handOver(role, payload) {
      const local = leases.get(role);
      if (local?.held) return local.work.handOver?.(payload);
      await pool.query("select pg_notify($1, $2)", [channelOf(role), payload]);
    },
    async close() {
      await Promise.all([...leases.values()].map((held) => held.close()));
      leases.clear();
    },
  };
}
