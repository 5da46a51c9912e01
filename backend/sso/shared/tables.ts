import type { Generated, Selectable } from "kysely";
import type { ActionName, ExecutionStatus, ExecutionStep, FeeToken } from "~core/api/actions";
import type { BindAddrType, LoginType } from "~core/api/sso";
import type { CardOrderStatus } from "~core/card-payment";

/**
 * Kysely table types of the SSO backend. Times are ISO 8601 UTC strings from Date#toISOString(),
 * which sort and compare as text.
 */
export interface SsoTables {
  users: UsersTable;
  login_attempts: LoginAttemptsTable;
  sessions: SessionsTable;
  email_codes: EmailCodesTable;
  managed_wallets: ManagedWalletsTable;
  wallet_sign_in_nonces: WalletSignInNoncesTable;
  outbox: OutboxTable;
  store_orders: StoreOrdersTable;
  store_payment_events: StorePaymentEventsTable;
  action_executions: ActionExecutionsTable;
  action_events: ActionEventsTable;
  action_steps: ActionStepsTable;
  action_rate: ActionRateTable;
  order_signatures: OrderSignaturesTable;
  role_fences: RoleFencesTable;
  gas_quotes: GasQuotesTable;
  gas_sponsorships: GasSponsorshipsTable;
}

export interface UsersTable {
  id: Generated<number>;
  /** Lower-cased; it is also the user name. */
  email: string;
  /** scrypt of the client's password pre-hash, see accounts/passwords.ts. */
  password_hash: string;
  /** Referral given at registration: an invite code or the referrer's checksummed wallet. */
  referrer: string | null;
  /** Checksummed, unique; null while no wallet is bound. */
  wallet_address: string | null;
  /** BIND_ADDR_TYPE: 0 none, 1 browser wallet, 2 managed wallet. */
  bind_addr_type: Generated<BindAddrType>;
  created_at: string;
  /** The player's public name as they wrote it (core/display-name.ts); null for none. */
  display_name: string | null;
  /** displayNameKey of it, unique (users_display_name_key); null exactly when display_name is. */
  display_name_key: string | null;
}
export type UserRow = Selectable<UsersTable>;

/** Sign-in attempts counted per account and client, see accounts/login-guard.ts. */
export interface LoginAttemptsTable {
  user_id: number;
  /** The client's address, or "*" for the account's budget across all clients. */
  client: string;
  /** Attempts counted in the window: failures, and attempts whose password check is still running. */
  failures: number;
  window_start: string;
  locked_until: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 hex of the token; the token itself is never stored. */
  token_hash: string;
  login_type: LoginType;
  /** The third-party identity the session signed in with: the wallet address for "wallet", else null. */
  login_identity: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}
export type SessionRow = Selectable<SessionsTable>;

export type CodePurpose = "register" | "reset";

export interface EmailCodesTable {
  id: Generated<number>;
  email: string;
  purpose: CodePurpose;
  /** Keyed HMAC of the code, see secrets.ts. */
  code_hash: string;
  created_at: string;
  expires_at: string;
  /** Wrong guesses so far. */
  attempts: Generated<number>;
  /** Set when used, or when a newer code replaces it. */
  consumed_at: string | null;
}

export interface ManagedWalletsTable {
  user_id: number;
  /** Checksummed. */
  address: string;
  /** AES-256-GCM sealed private key, see secrets.ts. */
  encrypted_key: string;
  created_at: string;
}

/** Wallet sign-in messages already used, so a captured signature cannot be replayed. */
export interface WalletSignInNoncesTable {
  nonce: string;
  created_at: string;
  expires_at: string;
  /** Set once, by the sign-in that spends the nonce. */
  used_at: string | null;
}

export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
}

export interface StoreOrdersTable {
  id: Generated<number>;
  /** The card-payment provider's checkout session id (Stripe's cs_...). */
  session_id: string;
  user_id: number | null;
  /** Where the paid boxes go: the account's wallet when it ordered. */
  wallet_address: string | null;
  /** The box type. */
  product_id: string;
  product_name: string;
  quantity: number;
  amount_cents: number;
  /** ISO 4217, lower case as Stripe writes it. */
  currency: string;
  status: CardOrderStatus;
  created_at: string;
  paid_at: string | null;
  /** When the delivery role last took the order (for the team: a new holder takes an earlier holder's claim at once). */
  delivering_since: string | null;
  /** Set while the delivery role mints the boxes: its writes count only while the claim is still its own. */
  delivering_token: string | null;
  /** The forge signed (JSON: hash, raw, nonce) and not yet known to be final: a retry sends and follows it. */
  delivery_forge: string | null;
  delivery_tx: string | null;
  delivered_at: string | null;
  /** Why the last delivery attempt failed, for the team (never shown to the buyer as is). */
  last_error: string | null;
}

/** Each provider event applied, by its id (Stripe's evt_...). */
export interface StorePaymentEventsTable {
  event_id: string;
  type: string;
  session_id: string | null;
  received_at: string;
}

/** An on-chain action of a managed wallet (executor/), run in `seq` order per wallet. */
export interface ActionExecutionsTable {
  seq: Generated<number>;
  /** 32 random hex characters: the name the API shows, unguessable. */
  id: string;
  user_id: number;
  /** The managed wallet that acts, checksummed. */
  wallet: string;
  action: ActionName;
  /** The validated parameters, as JSON. */
  params: string;
  idempotency_key: string;
  status: ExecutionStatus;
  /** Why it failed, in the product's words. */
  error: string | null;
  /** ExecutionResult as JSON, filled as steps are mined. */
  result: string | null;
  /** The last transaction sent, and its block once mined. */
  tx_hash: string | null;
  block_number: string | null;
  created_at: string;
  updated_at: string;
}
export type ActionExecutionRow = Selectable<ActionExecutionsTable>;

/** One planned transaction of an execution. Amounts are decimal wei. */
export interface ActionStepsTable {
  execution_seq: number;
  position: number;
  kind: ExecutionStep["kind"];
  label: string;
  status: ExecutionStep["status"];
  to_address: string;
  data: string;
  value: string;
  gas: string;
  nonce: number | null;
  /** The signed transaction, stored before it is broadcast so a restart sends these bytes again, never new ones. */
  raw_tx: string | null;
  tx_hash: string | null;
  block_number: string | null;
  /** The fencing token of the executor's holding that stored the signature (decision 0013); null while pending. */
  fence: number | null;
}
export type ActionStepRow = Selectable<ActionStepsTable>;

/** One on-chain action request of an account, counted for the executor's rate limit. */
/** The custodial rate budget: one row per (account, slot), slot < the budget's max (custodial-rate.ts). */
export interface ActionRateTable {
  user_id: number;
  slot: number;
  /** The time of the last request counted in this slot. */
  at: string;
}

/** An analytics event of an execution (the executor's outbox, decision 0009). */
export interface ActionEventsTable {
  seq: Generated<number>;
  /** `<execution id>-<step position>-<n>`: the event's name to the sink, the same on every attempt. */
  id: string;
  execution_seq: number;
  /** The AnalyticsEvent as JSON. */
  payload: string;
  /** Set with the execution's `mined`: only then is the event sent. A failed execution's events are deleted. */
  released_at: string | null;
  /** When the sink took it: it is never sent again. */
  delivered_at: string | null;
}
export type ActionEventRow = Selectable<ActionEventsTable>;

/** A market order the SSO signed with a managed wallet's key, by its idempotency key (POST /sso/signOrder). */
export interface OrderSignaturesTable {
  user_id: number;
  idempotency_key: string;
  /** sha256 of the typed data as signed: the same key with another order is refused. */
  order_hash: string;
  signature: string;
  created_at: string;
}

/** A background role's fencing token (db/roles.ts): counted up each time a process takes the role. */
export interface RoleFencesTable {
  role: string;
  token: number;
}

/** A network fee quoted for one action of a managed wallet without BNB (decision 0038). Amounts are decimal wei. */
export interface GasQuotesTable {
  id: string;
  user_id: number;
  wallet: string;
  idempotency_key: string;
  action: string;
  /** The request's parameters as posted (JSON), confirmed as they are. */
  params: string;
  /** The planned steps' labels (JSON array). */
  labels: string;
  token: FeeToken;
  fee: string;
  /** What the action itself spends of the fee's token. */
  spends: string;
  /** The BNB the tank sends. */
  gas: string;
  gas_price: string;
  created_at: string;
  expires_at: string;
  /** Set once confirmed: the execution it queued. */
  execution_id: string | null;
}

/** A confirmed quote, counted against the gas tank's budgets (gas-tank.ts). */
export interface GasSponsorshipsTable {
  id: Generated<number>;
  user_id: number;
  idempotency_key: string;
  quote_id: string;
  action: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** The BNB the tank sends, in gwei rounded up: the budgets sum it, and a day's site budget in wei would pass 2^53. */
  gas_gwei: number;
  fee_token: FeeToken;
  fee_wei: string;
  created_at: string;
}
