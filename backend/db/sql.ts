import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import type SQLite from "better-sqlite3";
import { setTimeout as sleep } from "node:timers/promises";
import { type Kysely, PostgresAdapter, type Transaction, sql } from "kysely";

/** The two engines the embedded backends run on (decision 0011). */
export type Engine = "sqlite" | "postgres";

/** What one statement changed. */
export interface RunResult {
  changes: number;
}

/**
 * Raw SQL for the market ledger, the same text on both engines: `?` placeholders, portable syntax. A driver runs
 * it on its own connection; inside `transaction`, the runner handed to the callback is the transaction's.
 */
export interface SqlRunner {
  readonly engine: Engine;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  run(sql: string, params?: readonly unknown[]): Promise<RunResult>;
  /**
   * Waits until no other write transaction holds `subject`, then holds it until this transaction ends (decision
   * 0031): a rule that counts or looks before it inserts ("at most 50 per account", "one a minute") takes its
   * subject's lock first, so its rivals on the same subject run one after another, each seeing the ones before.
   * On SQLite a no-op (a write transaction already runs alone); on PostgreSQL a transaction-level advisory lock.
   * Only a transaction's runner holds a subject: outside one it throws, on both engines.
   */
  lockSubject(subject: string): Promise<void>;
}

export interface SqlDriver extends SqlRunner {
  /**
   * `fn` as one write transaction. On PostgreSQL a serialization failure or deadlock (40001, 40P01) rolls it back
   * and runs `fn` again, a bounded number of times, so `fn` must do nothing but database work it can repeat.
   * Inside `fn`, use only the runner it is given: on SQLite the driver's own methods refuse (they would wait for
   * the connection the transaction holds), on PostgreSQL they would run outside the transaction.
   */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/* The one retry rule of every write transaction, on both engines (decision 0011). */
/** SQLSTATEs that mean "the same work may succeed if run again": serialization failure and deadlock. */
const RETRYABLE: Record<string, string> = { "40001": "serialization failure", "40P01": "deadlock" };
export const TRANSACTION_TRIES = 5;

/** A transaction that kept meeting serialization failures or deadlocks: the client may try again (a 503). */
export class DatabaseBusyError extends Error {}

function retryableCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code in RETRYABLE ? code : undefined;
}

/**
 * Runs `fn` and, when it fails with 40001 or 40P01, runs it again after a short jittered pause (so two rivals
 * don't collide again in lockstep), up to `TRANSACTION_TRIES` in all. `fn` must be a whole transaction: one that
 * failed this way has rolled back. Other errors pass through at once. SQLite's errors never carry these codes, so
 * on SQLite `fn` runs once.
 */
export async function withRetries<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const code = retryableCode(error);
      if (!code) throw error;
      if (attempt >= TRANSACTION_TRIES) {
        throw new DatabaseBusyError(`database busy: ${RETRYABLE[code]} (${code}) after ${attempt} tries`, { cause: error });
      }
      await sleep(Math.random() * 5 * 2 ** attempt);
    }
  }
}

/** A Kysely transaction under the same retry rule as the market's: the SSO's writes on either engine. */
export function retryingTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return withRetries(() => db.transaction().execute(fn));
}

/**
 * The two 32-bit keys of a subject's advisory lock (`pg_advisory_xact_lock(int, int)`), from a hash of its name.
 * The two-key form is a space of its own in pg_locks (objsubid 2), apart from the one-bigint session locks of the
 * roles and migrations (`lockKey`); two subjects that share a hash only wait for each other, never pass together.
 */
export function subjectLockKeys(subject: string): [number, number] {
  const digest = createHash("sha256").update(`spark-era:subject:${subject}`).digest();
  return [digest.readInt32BE(0), digest.readInt32BE(4)];
}

/** A subject's lock taken where no transaction is open: it would hold nothing, so it is a bug, said at once. */
export function lockOutsideTransaction(subject: string): Promise<never> {
  return Promise.reject(new Error(`lockSubject("${subject}") needs a write transaction: outside one it would hold nothing`));
}

/**
 * `lockSubject` for the SSO's Kysely transactions, the same rule as the market runner's: an advisory lock held until
 * `trx` ends on PostgreSQL, nothing on SQLite (its one connection runs one transaction at a time).
 */
export async function lockSubject<DB>(trx: Transaction<DB>, subject: string): Promise<void> {
  if (!trx.isTransaction) return lockOutsideTransaction(subject);
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  const [high, low] = subjectLockKeys(subject);
  await sql`select pg_advisory_xact_lock(${high}::int4, ${low}::int4)`.execute(trx);
}

/** A write refused by a unique key, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/**
 * Marks the async work of an open transaction, so that a statement sent to the driver itself from there fails at
 * once: on SQLite it would wait for the connection its own transaction holds, on PostgreSQL it would run outside
 * the transaction (and could wait for a pool its rivals hold).
 */
export class TransactionScope {
  private readonly open = new AsyncLocalStorage<true>();

  inside<T>(fn: () => Promise<T>): Promise<T> {
    return this.open.run(true, fn);
  }

  outside<T>(fn: () => Promise<T>): Promise<T> {
    if (this.open.getStore()) {
      return Promise.reject(new Error("A statement inside a transaction must run on the transaction's runner, not the database"));
    }
    return fn();
  }
}

type Statement = SQLite.Statement<unknown[], unknown>;

/** Enough distinct market query shapes for every filter mix in use, without growing without bound. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 under the one Kysely connection. Each call takes Kysely's connection first, so a statement never
 * runs inside an SSO transaction that is open across an await; a transaction is `BEGIN IMMEDIATE … COMMIT` on
 * that connection (the write lock is taken up front, so there is no lock-upgrade deadlock). Prepared statements
 * are cached by their text: the hot market query is planned once.
 */
export class SqliteDriver implements SqlDriver {
  readonly engine = "sqlite";
  private readonly statements = new Map<string, Statement>();
  private readonly direct: SqlRunner;
  /** The runner a transaction's callback gets: the same statements, and subjects already held by the one writer. */
  private readonly inTransaction: SqlRunner;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly kysely: Kysely<unknown>,
  ) {
    // Exact addition of wei kept as decimal text, for an upsert that adds in one statement (wei-column.ts weiSumSql):
    // SQLite's own arithmetic would turn uint256 text into a float. PostgreSQL adds as numeric instead.
    sqlite.function("wei_add", { deterministic: true }, (a: unknown, b: unknown) =>
      a === null || b === null ? null : (BigInt(a as string) + BigInt(b as string)).toString(),
    );
    this.direct = {
      engine: "sqlite",
      all: async <T>(sql: string, params: readonly unknown[] = []) => this.stmt(sql).all(...params) as T[],
      get: async <T>(sql: string, params: readonly unknown[] = []) => this.stmt(sql).get(...params) as T | undefined,
      run: async (sql: string, params: readonly unknown[] = []) => ({ changes: this.stmt(sql).run(...params).changes }),
      lockSubject: lockOutsideTransaction,
    };
    // BEGIN IMMEDIATE holds the file's write lock, and the transaction the one connection, until it ends: no other
    // writer runs meanwhile, so every subject is held already.
    this.inTransaction = { ...this.direct, lockSubject: async () => undefined };
  }

  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) return statement;
    statement = this.sqlite.prepare(sql);
    if (this.statements.size >= STATEMENT_CACHE_SIZE) {
      const oldest = this.statements.keys().next().value;
      if (oldest !== undefined) this.statements.delete(oldest);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  private readonly scope = new TransactionScope();

  private hold<T>(fn: () => Promise<T>): Promise<T> {
    return this.scope.outside(() => this.kysely.connection().execute(fn));
  }

  all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.hold(() => this.direct.all<T>(sql, params));
  }

  get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return this.hold(() => this.direct.get<T>(sql, params));
  }

  run(sql: string, params: readonly unknown[] = []): Promise<RunResult> {
    return this.hold(() => this.direct.run(sql, params));
  }

  lockSubject(subject: string): Promise<void> {
    return lockOutsideTransaction(subject);
  }

  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.hold(async () => {
      this.sqlite.prepare("begin immediate").run();
      try {
        const result = await this.scope.inside(() => fn(this.inTransaction));
        this.sqlite.prepare("commit").run();
        return result;
      } catch (error) {
        if (this.sqlite.inTransaction) this.sqlite.prepare("rollback").run();
        throw error;
      }
    });
  }
}
