import { type Kysely, sql } from "kysely";

export interface Migration {
  /** Unique and never renamed: the runner records applied names. */
  name: string;
  up(db: Kysely<unknown>): Promise<void>;
}

/**
 * Forward-only migrations: each one runs once, in list order, inside its own transaction.
 * There is no "down": a mistake is fixed by a new migration. The same runner serves both engines: the applied time
 * is written from JavaScript (an ISO text, as SQLite's strftime default wrote), not by an engine's own function.
 */
export async function migrate(db: Kysely<unknown>, migrations: readonly Migration[]): Promise<string[]> {
  await sql`create table if not exists _migrations (
    name text primary key,
    applied_at text not null
  )`.execute(db);
  const { rows } = await sql<{ name: string }>`select name from _migrations`.execute(db);
  const applied = new Set(rows.map((row) => row.name));
  const names = new Set<string>();
  const ran: string[] = [];
  for (const migration of migrations) {
    if (names.has(migration.name)) throw new Error(`Duplicate migration name ${migration.name}`);
    names.add(migration.name);
    if (applied.has(migration.name)) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx);
      await sql`insert into _migrations (name, applied_at) values (${migration.name}, ${new Date().toISOString()})`.execute(trx);
    });
    ran.push(migration.name);
  }
  return ran;
}

/** A migration's step that runs `statements` in order: raw SQL in one engine's dialect (the PostgreSQL migrations). */
export function runStatements(statements: readonly string[]): Migration["up"] {
  return async (db) => {
    for (const statement of statements) await sql.raw(statement).execute(db);
  };
}
