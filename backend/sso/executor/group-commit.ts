/**
 * Group commit of the executor's writes on SQLite (decision 0035). The file has one connection, so its transactions
 * run one after another anyway, and each commit waits for the disk (synchronous=FULL, decision 0007): in a drop a
 * thousand queues and three thousand requests each commit on their own, and the process spends most of its time in
 * those waits (tests/bench/drop.ts). Here the transactions asked for in one turn of the event loop run in one SQLite
 * transaction, each inside its own savepoint, and commit together: one wait on the disk for all of them.
 *
 * What each caller sees is what its own transaction gives: its writes all or nothing (an error rolls back to its
 * savepoint and is its caller's alone; the others commit), in the order asked, and its promise settles only once the
 * commit is on disk, so "stored before it is broadcast" (decision 0005) still means stored. Should the commit itself
 * fail, every caller of the group gets that error and nothing of the group was written.
 *
 * PostgreSQL keeps one transaction per write (retryingTransaction): it has a pool of connections and commits in
 * parallel, and its transactions retry on their own serialization failures.
 */
import { type Kysely, PostgresAdapter, sql, type Transaction } from "kysely";
import { retryingTransaction } from "../../db/sql";

type Work<DB> = (trx: Transaction<DB>) => Promise<unknown>;

interface Waiting<DB> {
  work: Work<DB>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export type Writer<DB> = <T>(work: (trx: Transaction<DB>) => Promise<T>) => Promise<T>;

export function groupCommit<DB>(db: Kysely<DB>): Writer<DB> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return (work) => retryingTransaction(db, work);

  let waiting: Waiting<DB>[] = [];
  /** A flush is scheduled or running: what is asked meanwhile waits for the next group. */
  let busy = false;

  /** Commits the group waiting now, then the one that gathered meanwhile, until none waits. */
  async function drain(): Promise<void> {
    while (waiting.length) await flush();
    busy = false;
  }

  async function flush(): Promise<void> {
    const group = waiting;
    waiting = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const [n, { work }] of group.entries()) {
          const savepoint = sql.raw(`group_commit_${n}`);
          await sql`savepoint ${savepoint}`.execute(trx);
          try {
            outcomes.push({ ok: true, value: await work(trx) });
            await sql`release savepoint ${savepoint}`.execute(trx);
          } catch (error) {
            await sql`rollback to savepoint ${savepoint}`.execute(trx);
            await sql`release savepoint ${savepoint}`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    group.forEach(({ resolve, reject }, n) => {
      const outcome = outcomes[n]!;
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    });
  }

  return <T>(work: (trx: Transaction<DB>) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!busy) {
        busy = true;
        // The rest of this turn's writes join the group.
        setImmediate(() => void drain());
      }
    });
}
