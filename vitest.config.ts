import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/** Suites about the PostgreSQL engine itself: they need the cluster and mean nothing on SQLite. */
const POSTGRES_ONLY = ["tests/backend/pg-*.test.ts"];

/**
 * The suites the "backend-postgres" project runs again on PostgreSQL. The lead widens this to tests/backend/**
 * when the market is ported to the async driver (issue 26).
 */
const POSTGRES_READY = [...POSTGRES_ONLY];

export default defineConfig({
  // The tsconfig paths: "~/x" is app/x, "~core/x" is core/x.
  resolve: {
    alias: {
      "~core": fileURLToPath(new URL("./core", import.meta.url)),
      "~": fileURLToPath(new URL("./app", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "default",
          include: ["tests/unit/**/*.test.ts", "tests/backend/**/*.test.ts", "tests/contracts/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...POSTGRES_ONLY],
        },
      },
      {
        extends: true,
        test: {
          name: "backend-postgres",
          include: POSTGRES_READY,
          env: { TEST_DB_ENGINE: "postgres" },
          // One cluster per run, started only when this project has tests to run.
          globalSetup: ["tests/support/postgres-setup.ts"],
        },
      },
    ],
  },
});
