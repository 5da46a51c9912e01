import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { migrate, type Migration } from "./migrate";
import { SqliteDriver, type Engine, type SqlDriver } from "./sql";
import { openPostgres } from "./postgres";
import { localRoles, type Roles } from "./roles";

/**
 * What a database holds, handed in by the backends that own its tables (backend/schema.ts, decision 0039): each
 * engine's migrations, in the order they run. The engine layer runs them and names one table only: the roles'
 * fencing tokens, `role_fences (role text primary key, token integer)` (roles.ts), which the SSO's sso_018 creates.
 */
export interface Schema {
  sqlite: readonly Migration[];
  postgres: readonly Migration[];
}

/** An open database of either engine, its typed queries on `DB` (the tables its schema creates). */
export interface EngineDb<DB> {
  engine: Engine;
  /** The typed queries (the SSO's). */
  db: Kysely<DB>;
  /** The raw SQL (the market ledger's), the same text on both engines. */
  sql: SqlDriver;
  /** The SQLite connection itself, for bulk tools (the generator, the seed script); null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  /** `fn` while no other process runs the work named `name` (migrations, the demo seed). */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** The background roles (executor, indexer, delivery): all held here on SQLite, leased on PostgreSQL. */
  roles: Roles;
  /** Lets go of the roles (their work stopped), then closes the connections. */
  close(): Promise<void>;
}

/** Whether a database target names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//.test(target);
}

/**
 * The database at `target`, migrated to `schema`: PostgreSQL for a `postgres://` URL (its own migrations, run under an
 * advisory lock; decision 0011), else the SQLite file.
 */
export function openEngine<DB>(target: string, schema: Schema, { log }: { log?: (message: string) => void } = {}): Promise<EngineDb<DB>> {
  return isPostgresUrl(target) ? openPostgres<DB>(target, schema.postgres, { log }) : openSqlite<DB>(target, schema.sqlite);
}

/**
 * Opens (creating if needed) the one SQLite file, in WAL mode with foreign keys on, and migrates it.
 * synchronous=FULL: the ledger holds money, so every commit reaches the disk before the client hears "done";
 * NORMAL could lose the last commits on a power cut or OS crash. Its cost: tests/bench/ledger-sync.ts.
 */
async function openSqlite<DB>(file: string, migrations: readonly Migration[]): Promise<EngineDb<DB>> {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = FULL");
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db as Kysely<unknown>, migrations);
  const roles = localRoles({
    // The statement postgres-roles.ts runs: the fencing tokens' table (roles.ts) is in every schema.
    takeFence: async (role) =>
      (
        await sql<{ token: number }>`insert into role_fences (role, token) values (${role}, 1)
          on conflict (role) do update set token = role_fences.token + 1 returning token`.execute(db)
      ).rows[0].token,
  });
  return {
    engine: "sqlite",
    db,
    sql: new SqliteDriver(sqlite, db as Kysely<unknown>),
    sqlite,
    // The file is locked to this one process (process-lock.ts): nothing else can run the work.
    exclusively: (_name, fn) => fn(),
    roles,
    async close() {
      await roles.close();
      await db.destroy();
    },
  };
}
