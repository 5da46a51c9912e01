import { type Kysely, sql } from "kysely";

/**
 * The SparkItems stream (indexer/items1155.ts): every ERC-1155 TransferSingle and TransferBatch applied, with the
 * block hash it was applied at and the balance moves it made, so a reorg can take them back. Ids and amounts are
 * comma-separated decimals (a batch carries several).
 */
const ITEMS_EVENTS = [
  `create table market_items_events (
    id integer primary key,
    block_number integer not null,
    block_hash text not null,
    tx_hash text not null,
    log_index integer not null,
    from_address text not null,
    to_address text not null,
    ids text not null,
    amounts text not null,
    effect text not null,
    created_at integer not null,
    unique (tx_hash, log_index)
  )`,
  `create index market_items_events_block on market_items_events (block_number)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of ITEMS_EVENTS) await sql.raw(statement).execute(db);
}
