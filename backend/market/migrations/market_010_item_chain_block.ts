import { type Kysely, sql } from "kysely";

/**
 * The transfers stream's fork check (indexer/indexer.ts): each item keeps the block of the transfer the stream last
 * applied to it, so after a reorg the items written in blocks that may have vanished are found and read again from
 * the chain. Null for an item the stream never wrote (game items, stacks) or wrote before this column.
 */
const ITEM_CHAIN_BLOCK = [
  `alter table market_items add column chain_block integer`,
  `create index market_items_chain_block on market_items (chain_block) where chain_block is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of ITEM_CHAIN_BLOCK) await sql.raw(statement).execute(db);
}
