/**
 * Which engine this run of the backend suites is on: the "backend-sqlite" Vitest project runs them on SQLite, the
 * "backend-postgres" project again on PostgreSQL (TEST_DB_ENGINE=postgres, one throwaway cluster per run).
 */
import path from "node:path";
import type { Engine } from "../../backend/db/sql";
import { createTestDatabase } from "../support/postgres";

export const TEST_ENGINE: Engine = process.env.TEST_DB_ENGINE === "postgres" ? "postgres" : "sqlite";

/**
 * A fresh database for one backend: on SQLite a file in `dir` (in memory without one), on PostgreSQL a new
 * database in the run's cluster. `from` (PostgreSQL only) copies a template database instead of starting empty.
 */
export function freshDatabase(dir?: string, name = "test", from?: string): Promise<string> {
  if (TEST_ENGINE === "postgres") return createTestDatabase(from);
  return Promise.resolve(dir === undefined ? ":memory:" : path.join(dir, `${name}.db`));
}

let seededTemplate: Promise<string> | undefined;

/**
 * On PostgreSQL, a database this worker migrated and seeded once with `seed` (the demo world, written row by row
 * over the network, takes a second or two there); the backends of a test that copy it find it seeded and leave it.
 */
export function seededTemplateOnce(seed: (url: string) => Promise<void>): Promise<string> | undefined {
  if (TEST_ENGINE !== "postgres") return undefined;
  seededTemplate ??= createTestDatabase().then(async (url) => {
    await seed(url);
    return new URL(url).pathname.slice(1);
  });
  return seededTemplate;
}
