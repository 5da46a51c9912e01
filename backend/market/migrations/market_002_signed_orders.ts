import { type Kysely, sql } from "kysely";

/** Signed orders: each (signer, nonce) is spent once; a per-wallet counter cancels all older listings. */
const ORDERS = [
  `create table market_used_nonces (
    signer text not null,
    nonce text not null,
    kind text not null,
    used_at integer not null,
    primary key (signer, nonce)
  ) without rowid`,
  `create table market_order_counters (
    address text primary key,
    counter integer not null default 0
  ) without rowid`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of ORDERS) await sql.raw(statement).execute(db);
}
