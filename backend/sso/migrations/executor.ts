/**
 * The SSO's SQLite migrations of managed wallets' on-chain actions (executor/): executions and their steps, the step
 * kinds each new action widened, the queue's status index, the executor's outbox of events (decision 0009), the
 * custodial rate's slots (decision 0010), the role fences (decision 0013) and the gas tank (decision 0038).
 * index.ts lists them, in order, among the others; postgres.ts has PostgreSQL's.
 */
import { type Kysely, sql } from "kysely";

/** On-chain actions of managed wallets (executor/): executions, their transactions, and the per-account rate. */
export async function createExecutions(db: Kysely<unknown>) {
  await db.schema
    .createTable("action_executions")
    // seq orders a wallet's queue; id is the unguessable name the API shows.
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("wallet", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("params", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('queued', 'approving', 'sending', 'mined', 'failed')`))
    .addColumn("error", "text")
    .addColumn("result", "text")
    .addColumn("tx_hash", "text")
    .addColumn("block_number", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    // The same key of one account is one execution, however many posts race for it.
    .addUniqueConstraint("action_executions_key", ["user_id", "idempotency_key"])
    .execute();
  await db.schema.createIndex("action_executions_queue").on("action_executions").columns(["wallet", "status", "seq"]).execute();

  await db.schema
    .createTable("action_steps")
    .addColumn("execution_seq", "integer", (c) => c.notNull().references("action_executions.seq").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('approve', 'buy', 'approve-opener', 'open')`))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sent', 'mined', 'failed')`))
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("gas", "text", (c) => c.notNull())
    .addColumn("nonce", "integer")
    .addColumn("raw_tx", "text")
    .addColumn("tx_hash", "text")
    .addColumn("block_number", "text")
    .addPrimaryKeyConstraint("action_steps_pk", ["execution_seq", "position"])
    // A transaction is signed and stored before it is broadcast: "sent" and "mined" always have bytes to send again.
    .addCheckConstraint(
      "action_steps_signed",
      sql`case status when 'pending' then raw_tx is null when 'failed' then 1 else raw_tx is not null end`,
    )
    .execute();

  await db.schema
    .createTable("action_rate")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("action_rate_user").on("action_rate").columns(["user_id", "at"]).execute();
}

/**
 * Wider step kinds for new actions. SQLite cannot change a check constraint, so action_steps is copied into a
 * table `action_steps_<version>` with the wider one and renamed back; nothing references it.
 */
export function widenStepKinds(version: string, kinds: readonly string[], { fenced = false } = {}) {
  const table = `action_steps_${version}`;
  return async (db: Kysely<unknown>) => {
    await db.schema
      .createTable(table)
      .addColumn("execution_seq", "integer", (c) => c.notNull().references("action_executions.seq").onDelete("cascade"))
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in (${sql.join(kinds.map((kind) => sql.lit(kind)))})`))
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sent', 'mined', 'failed')`))
      .addColumn("to_address", "text", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("gas", "text", (c) => c.notNull())
      .addColumn("nonce", "integer")
      .addColumn("raw_tx", "text")
      .addColumn("tx_hash", "text")
      .addColumn("block_number", "text")
      // sso_018 added the fencing token last; a widening after it keeps it there, so `select *` copies column for column.
      .$call((builder) => (fenced ? builder.addColumn("fence", "integer") : builder))
      .addPrimaryKeyConstraint(`${table}_pk`, ["execution_seq", "position"])
      .addCheckConstraint(
        `${table}_signed`,
        sql`case status when 'pending' then raw_tx is null when 'failed' then 1 else raw_tx is not null end`,
      )
      .execute();
    await sql`insert into ${sql.table(table)} select * from action_steps`.execute(db);
    await db.schema.dropTable("action_steps").execute();
    await db.schema.alterTable(table).renameTo("action_steps").execute();
  };
}

const LOOTBOX_STEP_KINDS = ["approve", "buy", "approve-opener", "open"];
/** Issue 13: staking. */
export const STAKING_STEP_KINDS = [...LOOTBOX_STEP_KINDS, "approve-stake", "deposit", "withdraw"];
/** Issue 14: the bridge's claims and swaps. */
export const BRIDGE_STEP_KINDS = [...STAKING_STEP_KINDS, "claim", "approve-swap", "swap"];
/** Issue 15: spaceships' FIRE and QUARK approvals and their StarshipManager calls. */
export const SPACESHIP_STEP_KINDS = [...BRIDGE_STEP_KINDS, "approve-ship", "ship"];
/** Issue 28: the trading contract's approval and its calls (quickSale, cancel, incrementCounter). */
export const TRADING_STEP_KINDS = [...SPACESHIP_STEP_KINDS, "approve-trade", "trade"];
/** Issue 46: a sponsored action's gas from the tank, its fee in a token, and the unused gas sent back. */
const GAS_TANK_STEP_KINDS = [...TRADING_STEP_KINDS, "gas-topup", "gas-fee", "gas-refund"];

/**
 * The gas tank (decision 0038). A quote fixes one action's network fee for its review: the token, the fee, the gas the
 * tank sends, and the request it confirms. A sponsorship is one confirmed quote, counted against the budgets by day;
 * one per account and idempotency key, as the execution is.
 */
export async function createGasTank(db: Kysely<unknown>) {
  await widenStepKinds("v6", GAS_TANK_STEP_KINDS, { fenced: true })(db);
  await db.schema
    .createTable("gas_quotes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("wallet", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("params", "text", (c) => c.notNull())
    .addColumn("labels", "text", (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull())
    .addColumn("fee", "text", (c) => c.notNull())
    .addColumn("spends", "text", (c) => c.notNull())
    .addColumn("gas", "text", (c) => c.notNull())
    .addColumn("gas_price", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("execution_id", "text")
    .execute();
  await db.schema.createIndex("gas_quotes_user_key").on("gas_quotes").columns(["user_id", "idempotency_key"]).execute();
  await db.schema
    .createTable("gas_sponsorships")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("quote_id", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("gas_gwei", "integer", (c) => c.notNull())
    .addColumn("fee_token", "text", (c) => c.notNull())
    .addColumn("fee_wei", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("gas_sponsorships_user_key", ["user_id", "idempotency_key"])
    .execute();
  await db.schema.createIndex("gas_sponsorships_day").on("gas_sponsorships").columns(["day", "user_id", "action"]).execute();
}

/** The queue-depth gauge counts unfinished executions by status on every scrape: an index, not a table scan. */
export async function indexExecutionStatus(db: Kysely<unknown>) {
  await db.schema.createIndex("action_executions_status").on("action_executions").column("status").execute();
}

/**
 * The executor's outbox (decision 0009): the analytics events of each mined step, kept with the step, released
 * with the execution's final `mined` in one transaction, and marked when the sink has taken them.
 */
export async function createActionEvents(db: Kysely<unknown>) {
  await db.schema
    .createTable("action_events")
    // seq is the delivery order; id names the event to the sink, the same on every attempt.
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("execution_seq", "integer", (c) => c.notNull().references("action_executions.seq").onDelete("cascade"))
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("released_at", "text")
    .addColumn("delivered_at", "text")
    .execute();
  await db.schema.createIndex("action_events_execution").on("action_events").column("execution_seq").execute();
  await db.schema.createIndex("action_events_undelivered").on("action_events").columns(["delivered_at", "released_at", "seq"]).execute();
}

/**
 * The custodial rate budget as slots (decision 0010): `max` rows per account at most, one per (user_id, slot), each
 * holding the time of the last request counted in it. A request takes a slot whose time has left the window, by one
 * conditional upsert (shared/custodial-rate.ts). Rows already counted keep their times, numbered newest first.
 */
export async function slotActionRate(db: Kysely<unknown>) {
  await db.schema
    .createTable("action_rate_slots")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("slot", "integer", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("action_rate_slots_pk", ["user_id", "slot"])
    .execute();
  await sql`insert into action_rate_slots (user_id, slot, at)
    select user_id, row_number() over (partition by user_id order by at desc, id desc) - 1, at from action_rate`.execute(db);
  await db.schema.dropTable("action_rate").execute();
  await db.schema.alterTable("action_rate_slots").renameTo("action_rate").execute();
}

/**
 * Fencing tokens (decision 0013): each taking of a role counts up its row, and a step stores the token of the
 * executor's holding that signed it, so a holder that lost the role can no longer store a signature.
 */
export async function createRoleFences(db: Kysely<unknown>) {
  await db.schema
    .createTable("role_fences")
    .addColumn("role", "text", (c) => c.primaryKey())
    .addColumn("token", "integer", (c) => c.notNull())
    .execute();
  await db.schema.alterTable("action_steps").addColumn("fence", "integer").execute();
}
