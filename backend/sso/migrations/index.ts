/**
 * The SSO's SQLite migrations, in order (backend/schema.ts hands them to backend/db; PostgreSQL's are postgres.ts):
 * accounts, wallets, the store and its card orders, sign-in, order signatures and display names here; managed
 * wallets' on-chain actions in executor.ts.
 */
import { type Kysely, sql } from "kysely";
import type { Migration } from "../../db/migrate";
import {
  BRIDGE_STEP_KINDS,
  SPACESHIP_STEP_KINDS,
  STAKING_STEP_KINDS,
  TRADING_STEP_KINDS,
  createActionEvents,
  createExecutions,
  createGasTank,
  createRoleFences,
  indexExecutionStatus,
  slotActionRate,
  widenStepKinds,
} from "./executor";

async function createAccounts(db: Kysely<unknown>) {
  await db.schema
    .createTable("users")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("referrer", "text")
    .addColumn("wallet_address", "text", (c) => c.unique())
    .addColumn("bind_addr_type", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed_login_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed_login_window_start", "text")
    .addColumn("locked_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addCheckConstraint("users_bind_addr_type", sql`bind_addr_type in (0, 1, 2)`)
    // A wallet type without a wallet (or the reverse) would mislead the wallet-mode rule.
    .addCheckConstraint("users_wallet_matches_type", sql`(wallet_address is null) = (bind_addr_type = 0)`)
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("login_type", "text", (c) => c.notNull().check(sql`login_type in ('email', 'wallet')`))
    .addColumn("login_identity", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("email_codes")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('register', 'reset')`))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("consumed_at", "text")
    .execute();
  await db.schema.createIndex("email_codes_lookup").on("email_codes").columns(["email", "purpose", "created_at"]).execute();
}

async function createWallets(db: Kysely<unknown>) {
  await db.schema
    .createTable("managed_wallets")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("address", "text", (c) => c.notNull().unique())
    .addColumn("encrypted_key", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("wallet_login_uses")
    .addColumn("message_hash", "text", (c) => c.primaryKey())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
}

async function createOutboxAndStore(db: Kysely<unknown>) {
  await db.schema
    .createTable("outbox")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("outbox_to").on("outbox").columns(["to_address", "id"]).execute();

  await db.schema
    .createTable("store_orders")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("session_id", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("product_id", "text", (c) => c.notNull())
    .addColumn("product_name", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'paid', 'canceled')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .execute();
}

/** Sign-in failures move from one count per account to one per account and client, plus the account's budget. */
async function createLoginAttempts(db: Kysely<unknown>) {
  await db.schema
    .createTable("login_attempts")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("failures", "integer", (c) => c.notNull().check(sql`failures >= 0`))
    .addColumn("window_start", "text", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .addPrimaryKeyConstraint("login_attempts_pk", ["user_id", "client"])
    .execute();
  // SQLite drops one column per statement.
  for (const column of ["failed_login_count", "failed_login_window_start", "locked_until"]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
}

/**
 * Issue 16: card orders are taken and fulfilled. An order remembers the wallet its boxes go to and its delivery;
 * `delivering` is the claim one fulfilment takes, so a replayed or parallel event never mints twice. Each
 * provider event is kept by id, so it is applied once. The old `canceled` is `failed` now.
 */
async function createCardOrders(db: Kysely<unknown>) {
  await db.schema
    .createTable("store_orders_v2")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("session_id", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("wallet_address", "text")
    .addColumn("product_id", "text", (c) => c.notNull())
    .addColumn("product_name", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'paid', 'delivered', 'failed')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .addColumn("delivering", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("delivery_tx", "text")
    .addColumn("delivered_at", "text")
    .addColumn("last_error", "text")
    .addCheckConstraint("store_orders_delivered", sql`(status = 'delivered') = (delivery_tx is not null)`)
    .execute();
  await sql`insert into store_orders_v2 (id, session_id, user_id, product_id, product_name, quantity, amount_cents, currency, status, created_at, paid_at, delivery_tx)
    select id, session_id, user_id, product_id, product_name, quantity, amount_cents, currency,
      case status when 'canceled' then 'failed' else status end, created_at, paid_at, null from store_orders`.execute(db);
  await db.schema.dropTable("store_orders").execute();
  await db.schema.alterTable("store_orders_v2").renameTo("store_orders").execute();
  await db.schema.createIndex("store_orders_user").on("store_orders").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("store_payment_events")
    .addColumn("event_id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("session_id", "text")
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
}

/**
 * A card order's delivery is exactly once across timeouts and crashes: the forge transaction is stored signed
 * before it is sent (a retry sends that one again and follows it instead of minting again), and a delivery claim is
 * dated and named, so one left by a process that died is taken over after a while, and the process that lost it can
 * no longer write.
 */
async function trackDeliveries(db: Kysely<unknown>) {
  await db.schema.alterTable("store_orders").addColumn("delivery_forge", "text").execute();
  await db.schema.alterTable("store_orders").addColumn("delivering_since", "text").execute();
  await db.schema.alterTable("store_orders").addColumn("delivering_token", "text").execute();
}

/** `delivering` said what `delivering_token` says (set exactly while one fulfilment holds the order): one column is enough. */
async function dropDeliveringFlag(db: Kysely<unknown>) {
  await db.schema.alterTable("store_orders").dropColumn("delivering").execute();
}

/** Market orders signed with managed wallets' keys, one per (account, idempotency key). */
async function createOrderSignatures(db: Kysely<unknown>) {
  await db.schema
    .createTable("order_signatures")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("order_hash", "text", (c) => c.notNull())
    .addColumn("signature", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("order_signatures_pk", ["user_id", "idempotency_key"])
    .execute();
}

/**
 * Sign-In with Ethereum (decision 0019): the nonces POST /sso/walletNonce issues, each spent once by loginOther (used_at
 * set by one conditional update). They replace the spent-message hashes of the old home-made sign-in message.
 */
async function createWalletNonces(db: Kysely<unknown>) {
  await db.schema
    .createTable("wallet_sign_in_nonces")
    .addColumn("nonce", "text", (c) => c.primaryKey())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("wallet_sign_in_nonces_expiry").on("wallet_sign_in_nonces").column("expires_at").execute();
  await db.schema.dropTable("wallet_login_uses").execute();
}

/**
 * Display names (issue 42): the name as the player wrote it, and its lower-case key, unique by an index, so that of two
 * accounts taking one name at once (in any case) the database lets one through. An account without a name has neither.
 */
async function addDisplayNames(db: Kysely<unknown>) {
  await db.schema.alterTable("users").addColumn("display_name", "text").execute();
  await db.schema.alterTable("users").addColumn("display_name_key", "text").execute();
  await db.schema.createIndex("users_display_name_key").on("users").column("display_name_key").unique().execute();
}

export const ssoMigrations: Migration[] = [
  { name: "sso_001_accounts_sessions_codes", up: createAccounts },
  { name: "sso_002_wallets", up: createWallets },
  { name: "sso_003_outbox_store", up: createOutboxAndStore },
  { name: "sso_004_login_attempts", up: createLoginAttempts },
  { name: "sso_005_action_executions", up: createExecutions },
  { name: "sso_006_staking_step_kinds", up: widenStepKinds("v2", STAKING_STEP_KINDS) },
  { name: "sso_007_bridge_step_kinds", up: widenStepKinds("v3", BRIDGE_STEP_KINDS) },
  { name: "sso_008_spaceship_step_kinds", up: widenStepKinds("v4", SPACESHIP_STEP_KINDS) },
  { name: "sso_009_card_orders", up: createCardOrders },
  { name: "sso_010_execution_status_index", up: indexExecutionStatus },
  { name: "sso_011_delivery_tracking", up: trackDeliveries },
  { name: "sso_012_drop_delivering_flag", up: dropDeliveringFlag },
  { name: "sso_013_action_events", up: createActionEvents },
  { name: "sso_014_order_signatures", up: createOrderSignatures },
  { name: "sso_015_action_rate_slots", up: slotActionRate },
  { name: "sso_016_trading_step_kinds", up: widenStepKinds("v5", TRADING_STEP_KINDS) },
  { name: "sso_017_wallet_sign_in_nonces", up: createWalletNonces },
  { name: "sso_018_role_fences", up: createRoleFences },
  { name: "sso_019_display_names", up: addDisplayNames },
  { name: "sso_020_gas_tank", up: createGasTank },
];
