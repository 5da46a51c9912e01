import { type Kysely, sql } from "kysely";

/**
 * The bridge stream (indexer/bridge.ts): every asset manager event applied to the game, with the block hash it was
 * applied at and what it did, so a reorg can take it back; and the hash of the block a cursor stands on.
 */
const BRIDGE_EVENTS = [
  `create table market_bridge_events (
    id integer primary key,
    block_number integer not null,
    block_hash text not null,
    tx_hash text not null,
    log_index integer not null,
    event text not null check (event in ('claimed', 'swapped')),
    account text not null,
    kind integer not null,
    asset text not null,
    id_or_amount text not null,
    ref text not null,
    effect text not null,
    created_at integer not null,
    unique (tx_hash, log_index)
  )`,
  `create index market_bridge_events_block on market_bridge_events (block_number)`,
  `alter table market_chain_cursors add column block_hash text`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of BRIDGE_EVENTS) await sql.raw(statement).execute(db);
}
