import { createHash } from "node:crypto";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { migrate, type Migration } from "./migrate";
import {
  TransactionScope,
  lockOutsideTransaction,
  subjectLockKeys,
  withRetries,
  type RunResult,
  type SqlDriver,
  type SqlRunner,
} from "./sql";
import { postgresRoles } from "./postgres-roles";
import type { Roles } from "./roles";

/** `?` → `$1…$n`, leaving single-quoted literals alone (a `''` inside one toggles twice and stays inside). */
export function toNumberedPlaceholders(sql: string): string {
  let n = 0;
  let quoted = false;
  let out = "";
  for (const char of sql) {
    if (char === "'") quoted = !quoted;
    out += char === "?" && !quoted ? `$${++n}` : char;
  }
  return out;
}

/**
 * int8 as a JS number, like SQLite's integers: `count(*)` and our bigint millisecond times then read the same on
 * both engines. A value beyond 2^53 would silently lose digits, so it fails the query instead. numeric stays a
 * string (pg's default): wei amounts exceed 2^53. Set per pool, not on the global pg.types, so no other user of pg
 * in the process is affected.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === pg.types.builtins.INT8 && format !== "binary") {
      return (value: string) => {
        const number = Number(value);
        if (!Number.isSafeInteger(number)) throw new Error(`int8 ${value} is beyond JavaScript's safe integers`);
        return number;
      };
    }
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** As many named statements as the SQLite driver caches: each connection prepares at most this many. */
const STATEMENT_CACHE_SIZE = 500;

interface Prepared {
  text: string;
  name?: string;
}

type Queryable = Pick<pg.PoolClient, "query">;

/**
 * The market's SQL on a pg pool. Each distinct text gets a named prepared statement (name from a hash of the
 * text), which pg parses and PostgreSQL plans once per connection, as the SQLite driver's statement cache does.
 * Past `STATEMENT_CACHE_SIZE` texts, statements run unnamed, so no connection holds an unbounded set.
 */
export class PgDriver implements SqlDriver {
  readonly engine = "postgres";
  private readonly prepared = new Map<string, Prepared>();

  constructor(private readonly pool: pg.Pool) {}

  private prepare(sql: string): Prepared {
    let prepared = this.prepared.get(sql);
    if (prepared) return prepared;
    const text = toNumberedPlaceholders(sql);
    prepared =
      this.prepared.size < STATEMENT_CACHE_SIZE
        ? { text, name: `s_${createHash("sha1").update(text).digest("hex").slice(0, 24)}` }
        : { text };
    this.prepared.set(sql, prepared);
    return prepared;
  }

  private query<T>(on: Queryable, sql: string, params: readonly unknown[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    return on.query<T & pg.QueryResultRow>({ ...this.prepare(sql), values: [...params] });
  }

  /** Statements on `on`; `inTransaction` when `on` is a transaction's client, the only place a subject lock holds. */
  private runner(on: Queryable, inTransaction = false): SqlRunner {
    const run = async (sql: string, params: readonly unknown[] = []) => ({ changes: (await this.query(on, sql, params)).rowCount ?? 0 });
    return {
      engine: "postgres",
      all: async <T>(sql: string, params: readonly unknown[] = []) => (await this.query<T>(on, sql, params)).rows,
      get: async <T>(sql: string, params: readonly unknown[] = []) => (await this.query<T>(on, sql, params)).rows[0],
      run,
      // Released by the commit or rollback, after the commit is visible: the next holder's statements see it.
      lockSubject: inTransaction
        ? async (subject: string) => void (await run("select pg_advisory_xact_lock(?::int4, ?::int4)", subjectLockKeys(subject)))
        : lockOutsideTransaction,
    };
  }

  private readonly scope = new TransactionScope();

  all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.scope.outside(() => this.runner(this.pool).all<T>(sql, params));
  }

  get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return this.scope.outside(() => this.runner(this.pool).get<T>(sql, params));
  }

  run(sql: string, params: readonly unknown[] = []): Promise<RunResult> {
    return this.scope.outside(() => this.runner(this.pool).run(sql, params));
  }

  lockSubject(subject: string): Promise<void> {
    return lockOutsideTransaction(subject);
  }

  /**
   * READ COMMITTED (PostgreSQL's default): the market's writes guard themselves with conditional updates whose row
   * locks serialise rivals (decision 0010). Deadlocks, and 40001 from any `fn` that raises its own isolation, are
   * retried by `withRetries`.
   */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return withRetries(async () => {
      const client = await this.pool.connect();
      try {
        await client.query("begin");
        const result = await this.scope.inside(() => fn(this.runner(client, true)));
        await client.query("commit");
        client.release();
        return result;
      } catch (error) {
        // A client whose rollback fails is in an unknown state: release(error) closes it instead of pooling it.
        await client.query("rollback").then(
          () => client.release(),
          (rollbackError: Error) => client.release(rollbackError),
        );
        throw error;
      }
    });
  }
}

/** A signed 64-bit advisory lock key from a name, as the decimal text pg_advisory_lock(bigint) takes. */
export function lockKey(name: string): string {
  return createHash("sha256").update(name).digest().readBigInt64BE(0).toString();
}

/** Migrations take this lock; role names go through `exclusively`, which prefixes them, so they never meet it. */
const MIGRATION_LOCK = "spark-era:migrations";

/**
 * Runs `fn` while holding a session advisory lock on a connection of its own, outside the pool: a lock held for a
 * process's life (a role's lease) takes no connection from the pool, and `fn` can use the whole pool meanwhile.
 * If that connection drops, PostgreSQL releases the lock while `fn` still runs; `fn` is not stopped, but its end
 * is reported as an error rather than as work done under the lock.
 */
async function holdingAdvisoryLock<T>(config: pg.PoolConfig, name: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  let lost: Error | undefined;
  client.on("error", (error) => (lost = error));
  await client.connect();
  try {
    const key = lockKey(name);
    await client.query("select pg_advisory_lock($1::bigint)", [key]);
    const result = await fn();
    if (lost) throw new Error(`lost the advisory lock "${name}" while holding it`, { cause: lost });
    await client.query("select pg_advisory_unlock($1::bigint)", [key]);
    return result;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface PostgresOptions {
  /** Connections in the pool; default 10. */
  poolSize?: number;
  /** Where the roles say they took or let go of a role. */
  log?: (message: string) => void;
}

/** What `openPostgres` returns: `EngineDb`'s PostgreSQL shape. */
export interface PostgresDb<DB = unknown> {
  engine: "postgres";
  db: Kysely<DB>;
  sql: PgDriver;
  sqlite: null;
  roles: Roles;
  close(): Promise<void>;
  /** `fn` with no other holder of `name` in any process on this database (a session advisory lock). */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/**
 * Connects to `url` and migrates under an advisory lock, so processes starting at once migrate once: the others
 * wait, then find every migration applied. Kysely and the market's driver share one pool.
 */
export async function openPostgres<DB = unknown>(
  url: string,
  migrations: readonly Migration[],
  options: PostgresOptions = {},
): Promise<PostgresDb<DB>> {
  const config: pg.PoolConfig = { connectionString: url, types };
  const pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
  // An idle pooled connection that drops emits 'error'; unheard, it would crash the process. The pool discards it
  // and the next query opens a new one.
  pool.on("error", () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  try {
    await holdingAdvisoryLock(config, MIGRATION_LOCK, () => migrate(db as Kysely<unknown>, migrations));
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const roles = postgresRoles(config, pool, { log: options.log });
  return {
    engine: "postgres",
    db,
    sql: new PgDriver(pool),
    sqlite: null,
    roles,
    async close() {
      await roles.close();
      await db.destroy();
    },
    exclusively: (name, fn) => holdingAdvisoryLock(config, `spark-era:role:${name}`, fn),
  };
}
