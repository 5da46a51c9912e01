import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/** Suites about the PostgreSQL engine itself: they need the cluster and mean nothing on SQLite. */
const POSTGRES_ONLY = ["tests/backend/pg-*.test.ts", "tests/backend/schema-engines.test.ts"];

/**
 * Backend suites about what only SQLite has (its pragmas, its file lock, its migration history), and the ones that
 * open no database (rules): they run once, in the backend-sqlite project.
 */
const NOT_ON_POSTGRES = [
  "tests/backend/db.test.ts",
  "tests/backend/process-lock.test.ts",
  "tests/backend/migrations-0010.test.ts",
  "tests/backend/market-domain.test.ts",
  "tests/backend/*-rules.test.ts",
];

/**
 * Suites outside tests/unit that set the app's environment and then import its server modules, which read it once:
 * they need a module registry of their own, so they run with the unit suites. Neither opens a database.
 */
const OWN_REGISTRY = ["tests/backend/staking-reads.test.ts", "tests/contracts/metadata.test.ts"];

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
    // Most suites wait on a chain, a database or a server rather than compute: on CI's 2 cores, four files at once
    // keep both busy (the default, one per core, left them idle half the time).
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", ...OWN_REGISTRY],
        },
      },
      {
        extends: true,
        test: {
          name: "backend-sqlite",
          include: ["tests/backend/**/*.test.ts", "tests/contracts/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...POSTGRES_ONLY, ...OWN_REGISTRY],
          // One module registry per worker, not per file: each of these files imported the backends, viem and the
          // harness afresh, which was most of the run's CPU. They mock no module and keep their state in the database and
          // chain each opens (the unit suites mock modules, so each keeps a registry of its own).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "backend-postgres",
          // Every backend suite again, on PostgreSQL (tests/backend/engine.ts).
          include: ["tests/backend/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...NOT_ON_POSTGRES, ...OWN_REGISTRY],
          env: { TEST_DB_ENGINE: "postgres" },
          // One cluster per run, started only when this project has tests to run.
          globalSetup: ["tests/support/postgres-setup.ts"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Issue 27: one site on three server processes (tests/multi/global-setup.ts launches them, like `npm run
          // cluster`). Needs the production build; `npm run test:multi`, after test:e2e in `npm test`.
          name: "multi",
          include: ["tests/multi/**/*.test.ts"],
          globalSetup: ["tests/multi/global-setup.ts"],
          // One file at a time: the tests kill the processes that hold the roles, which every other test relies on.
          fileParallelism: false,
          testTimeout: 90_000,
        },
      },
    ],
  },
});
