import type { BackendDb } from "../../types";
import type { RunResult, SqlRunner } from "../../db/sql";

/** What the market's queries run on: the database itself, or one write transaction (`MarketDb.write`). */
export type Sql = SqlRunner;

/**
 * The market ledger's database: raw SQL, the same text on both engines (backend/db/sql.ts). A state transition is
 * one `write`, and every statement in it runs on the transaction it is handed.
 */
export class MarketDb implements SqlRunner {
  constructor(readonly store: BackendDb) {}

  get engine() {
    return this.store.sql.engine;
  }

  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return this.store.sql.all<T>(sql, params);
  }

  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    return this.store.sql.get<T>(sql, params);
  }

  run(sql: string, params?: readonly unknown[]): Promise<RunResult> {
    return this.store.sql.run(sql, params);
  }

  /** Refuses: a subject is held only inside `write` (the transaction's runner has it). */
  lockSubject(subject: string): Promise<void> {
    return this.store.sql.lockSubject(subject);
  }

  /** `fn` as one write transaction; on PostgreSQL it may run again after a serialization failure. */
  write<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.store.sql.transaction(fn);
  }
}
