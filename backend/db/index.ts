import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { migrate } from "./migrate";
import { ssoMigrations } from "../sso/migrations";
import { marketMigrations } from "../market/migrations";
import type { SsoTables } from "../sso/tables";
import type { MarketTables } from "../market/tables";

/** Every table of the embedded backends; each service declares its own part. */
export type Database = SsoTables & MarketTables;

export interface BackendDb {
  db: Kysely<Database>;
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/**
 * Opens (creating if needed) the one SQLite file, in WAL mode with foreign keys on, and migrates it.
 * synchronous=FULL: the ledger holds money, so every commit reaches the disk before the client hears "done";
 * NORMAL could lose the last commits on a power cut or OS crash. Its cost: tests/bench/ledger-sync.ts.
 */
export async function openDatabase(file: string): Promise<BackendDb> {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = FULL");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db as Kysely<unknown>, [...ssoMigrations, ...marketMigrations]);
  return {
    db,
    sqlite,
    close: () => db.destroy(),
  };
}
