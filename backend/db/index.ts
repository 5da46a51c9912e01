import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { migrate } from "./migrate";
import type { SsoTables } from "../sso/shared/tables";
import type { MarketTables } from "../market/tables";
import { SqliteDriver, type Engine, type SqlDriver } from "./sql";
import { openPostgres } from "./postgres";
import { postgresMigrations, sqliteMigrations } from "../schema";
import { localRoles, type Roles } from "./roles";

/** Every table of the embedded backends; each service declares its own part. */
export type Database = SsoTables & MarketTables;

export interface BackendDb {
  engine: Engine;
  /** The SSO's typed queries. */
  db: Kysely<Database>;
  /** The market ledger's raw SQL, the same text on both engines. */
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
 * The embedded backends' database: PostgreSQL for a `postgres://` URL (its own baseline schema, migrated under an
 * advisory lock; decision 0011), else the SQLite file.
 */
export function openDatabase(target: string, { log }: { log?: (message: string) => void } = {}): Promise<BackendDb> {
  return isPostgresUrl(target) ? openPostgres<Database>(target, postgresMigrations, { log }) : openSqlite(target);
}

/**
 * Opens (creating if needed) the one SQLite file, in WAL mode with foreign keys on, and migrates it.
 * synchronous=FULL: the ledger holds money, so every commit reaches the disk before the client hears "done";
 * NORMAL could lose the last commits on a power cut or OS crash. Its cost: tests/bench/ledger-sync.ts.
 */
async function openSqlite(file: string): Promise<BackendDb> {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = FULL");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db as Kysely<unknown>, sqliteMigrations);
  const roles = localRoles({
    takeFence: async (role) =>
      (
        await db
          .insertInto("role_fences")
          .values({ role, token: 1 })
          .onConflict((oc) => oc.column("role").doUpdateSet((eb) => ({ token: eb("role_fences.token", "+", 1) })))
          .returning("token")
          .executeTakeFirstOrThrow()
      ).token,
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
