/**
 * Which engine this run of the backend suites is on: the "default" Vitest project runs them on SQLite, the
 * "backend-postgres" project again on PostgreSQL (TEST_DB_ENGINE=postgres, one throwaway cluster per run).
 */
import path from "node:path";
import type { Engine } from "../../backend/db/sql";
import { createTestDatabase } from "../support/postgres";

export const TEST_ENGINE: Engine = process.env.TEST_DB_ENGINE === "postgres" ? "postgres" : "sqlite";

/**
 * A fresh database for one backend: on SQLite a file in `dir` (in memory without one), on PostgreSQL a new
 * database in the run's cluster.
 */
export function freshDatabase(dir?: string, name = "test"): Promise<string> {
  if (TEST_ENGINE === "postgres") return createTestDatabase();
  return Promise.resolve(dir === undefined ? ":memory:" : path.join(dir, `${name}.db`));
}
