import { type Kysely, sql } from "kysely";

/**
 * The mutations stream (indexer/mutations.ts): every SparkCard DataMutated, MetadataUpdate and BatchMetadataUpdate
 * applied, with the block hash it was applied at and the descriptions it replaced, so a reorg can put them back.
 * Token ids are decimal text (uint256); `to_token_id` is a batch's last id, null for one token.
 */
const MUTATION_EVENTS = [
  `create table market_mutation_events (
    id integer primary key,
    block_number integer not null,
    block_hash text not null,
    tx_hash text not null,
    log_index integer not null,
    event text not null,
    token_id text not null,
    to_token_id text,
    effect text not null,
    created_at integer not null,
    unique (tx_hash, log_index)
  )`,
  `create index market_mutation_events_block on market_mutation_events (block_number)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of MUTATION_EVENTS) await sql.raw(statement).execute(db);
}
