import { type Kysely, sql } from "kysely";

/**
 * The materials stream (indexer/materials.ts): every StarshipManager MaterialsSentToGame event applied, with the
 * block hash it was applied at and the stacks it made, so a reorg can take them back. Amounts are whole units.
 */
const MATERIALS_EVENTS = [
  `create table market_materials_events (
    id integer primary key,
    block_number integer not null,
    block_hash text not null,
    tx_hash text not null,
    log_index integer not null,
    owner text not null,
    dark_iron text not null,
    silver text not null,
    gold text not null,
    effect text not null,
    created_at integer not null,
    unique (tx_hash, log_index)
  )`,
  `create index market_materials_events_block on market_materials_events (block_number)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of MATERIALS_EVENTS) await sql.raw(statement).execute(db);
}
