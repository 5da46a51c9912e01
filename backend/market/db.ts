import type SQLite from "better-sqlite3";
import type { BackendDb } from "../db";

type Statement = SQLite.Statement<unknown[], unknown>;

/** Enough distinct market query shapes for every filter mix in use, without growing without bound. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Synchronous better-sqlite3 access for the market, serialised with Kysely users of the same connection.
 *
 * Why not Kysely for the market's own queries: a state transition must be one transaction with no await
 * inside it, and the hot market query benefits from cached prepared statements. Why take Kysely's connection
 * first: the SSO service shares this connection and may hold an async Kysely transaction open across awaits;
 * running our statements inside it would make them part of its transaction.
 */
export class MarketDb {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly store: BackendDb) {}

  get sqlite(): SQLite.Database {
    return this.store.sqlite;
  }

  /** A cached prepared statement. */
  stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) return statement;
    statement = this.store.sqlite.prepare(sql);
    if (this.statements.size >= STATEMENT_CACHE_SIZE) {
      const oldest = this.statements.keys().next().value;
      if (oldest !== undefined) this.statements.delete(oldest);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  all<T>(sql: string, params: readonly unknown[] = []): T[] {
    return this.stmt(sql).all(...params) as T[];
  }

  get<T>(sql: string, params: readonly unknown[] = []): T | undefined {
    return this.stmt(sql).get(...params) as T | undefined;
  }

  run(sql: string, params: readonly unknown[] = []): SQLite.RunResult {
    return this.stmt(sql).run(...params);
  }

  /** Holds the connection for `fn`, which may await (e.g. to sign) between its synchronous steps. */
  exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    return this.store.db.connection().execute(async () => fn());
  }

  /** Reads outside any other service's open transaction. */
  read<T>(fn: () => T): Promise<T> {
    return this.exclusive(fn);
  }

  /** `fn` as one IMMEDIATE transaction (the write lock is taken up front, so no upgrade deadlock). */
  write<T>(fn: () => T): Promise<T> {
    return this.exclusive(() => this.transaction(fn));
  }

  /** Runs `fn` in an IMMEDIATE transaction; only call while holding the connection (inside exclusive). */
  transaction<T>(fn: () => T): T {
    return this.store.sqlite.transaction(fn).immediate();
  }
}
