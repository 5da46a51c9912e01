/**
 * What the executor's chain-free rule suites share: made-up contract addresses and a guard context over them, and an
 * in-memory SSO database part-way through its migrations, to test one migration on the rows stored before it.
 */
import SQLite from "better-sqlite3";
import { expect } from "vitest";
import { Kysely, SqliteDialect } from "kysely";
import type { Address } from "viem";
import type { Contracts, GuardContext } from "../../backend/sso/executor/allowlist";
import { DEFAULT_EXECUTOR_POLICY } from "../../backend/sso/executor/policy";
import { migrate } from "../../backend/db/migrate";
import { ssoMigrations } from "../../backend/sso/migrations";

/** A made-up address with `n` in its last digits. */
export const at = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;

/** Every contract the guard knows, at made-up addresses 1 to 13. */
export const contracts: Contracts = {
  fire: at(1),
  quark: at(2),
  usdt: at(3),
  boxSale: at(4),
  box: at(5),
  opener: at(6),
  card: at(7),
  assetManager: at(8),
  staking: at(9),
  starship: at(10),
  items: at(11),
  trading: at(12),
  rewardManager: at(13),
};

/** The guard's context for wallet 0x…1234 over `contracts`: the default value caps, BNB priced at `nativePrice`, no cards, no boxes. */
export const guardContext = (nativePrice = 0n): GuardContext => ({
  contracts,
  wallet: at(0x1234),
  valueCaps: DEFAULT_EXECUTOR_POLICY.valueCaps,
  nativePrice: async () => nativePrice,
  card: async () => null,
  boxOwner: async () => null,
});

/** Runs the SSO migrations named before `name` that have not run yet; the names of those it ran. */
export const migrateBefore = (kysely: Kysely<unknown>, name: string) =>
  migrate(
    kysely,
    ssoMigrations.filter((m) => m.name < name),
  );

/** An in-memory SSO database, foreign keys on, migrated up to (not including) migration `name`. */
export async function migratedBefore(name: string) {
  const sqlite = new SQLite(":memory:");
  sqlite.pragma("foreign_keys = ON");
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrateBefore(kysely, name);
  return { sqlite, kysely };
}

/**
 * migratedBefore(`name`) holding one user and one mined execution of `action`; `step` stores a mined step of that
 * execution, of `kind` at `position` (and throws where the schema refuses the kind).
 */
export async function executionBefore(name: string, action: string) {
  const { sqlite, kysely } = await migratedBefore(name);
  const now = new Date().toISOString();
  sqlite.prepare("insert into users (email, password_hash, created_at) values ('a@b.test', 'x', ?)").run(now);
  sqlite
    .prepare(
      `insert into action_executions (id, user_id, wallet, action, params, idempotency_key, status, created_at, updated_at)
       values ('e1', 1, '0xw', ?, '{}', 'key-00000001', 'mined', ?, ?)`,
    )
    .run(action, now, now);
  const step = (position: number, kind: string) =>
    sqlite
      .prepare(
        `insert into action_steps (execution_seq, position, kind, label, status, to_address, data, value, gas, raw_tx, tx_hash)
         values (1, ?, ?, 'a step', 'mined', '0xto', '0x', '0', '1', '0xraw', '0xhash')`,
      )
      .run(position, kind);
  return { sqlite, kysely, step };
}

/**
 * A migration that widens the step kinds, on an execution of `action` stored before it with a step of `stored` (a
 * step of `added` refused then): the migration, the one run before `next`, keeps that step; `after` stores steps of
 * the new kinds (and may migrate on); then the steps still go with their execution.
 */
export async function checkStepKindsMigration(
  migration: string,
  next: string,
  action: string,
  { stored, added }: { stored: string; added: string },
  after: (execution: Awaited<ReturnType<typeof executionBefore>>) => Promise<void> | void,
) {
  const execution = await executionBefore(migration.slice(0, "sso_000".length), action);
  const { sqlite, kysely, step } = execution;
  step(0, stored);
  expect(() => step(1, added)).toThrow(/CHECK constraint failed/);

  expect(await migrateBefore(kysely, next)).toEqual([migration]);
  expect(sqlite.prepare("select position, kind, raw_tx from action_steps").all()).toEqual([{ position: 0, kind: stored, raw_tx: "0xraw" }]);
  await after(execution);
  sqlite.prepare("delete from action_executions").run();
  expect(sqlite.prepare("select count(*) as n from action_steps").get()).toEqual({ n: 0 });
  await kysely.destroy();
}
