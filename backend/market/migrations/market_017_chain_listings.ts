import { type Kysely, sql } from "kysely";

/**
 * Chain listings (issue 28, docs/api/market.md "Chain listings"): a seller's signed Trading listing stored beside the
 * ledger's, in the same table, so one grid, one filter and the one-active-listing key cover both. `venue` says where
 * it is filled (0 the game ledger, 1 the chain); a chain listing keeps the signed fields a buyer passes to quickSale
 * (uint256 ones as decimal text) and its order hash, the key of the Trading events that close it. The trading stream
 * (indexer/trading.ts) keeps every Trading event it applied with its block hash and what it changed, for reorgs.
 */
const CHAIN_LISTINGS = [
  `alter table market_listings add column venue integer not null default 0`,
  `alter table market_listings add column collection text`,
  `alter table market_listings add column standard integer`,
  `alter table market_listings add column amount text`,
  `alter table market_listings add column salt text`,
  `alter table market_listings add column counter text`,
  `alter table market_listings add column order_hash text`,
  `create unique index market_listings_order_hash on market_listings (order_hash) where order_hash is not null`,
  // CounterIncremented closes a seller's active chain listings signed under a lower counter.
  `create index market_listings_a_chain_seller on market_listings (seller_address) where status = 0 and venue = 1`,
  `create table market_trading_events (
    id integer primary key,
    block_number integer not null,
    block_hash text not null,
    tx_hash text not null,
    log_index integer not null,
    event text not null,
    effect text not null,
    created_at integer not null,
    unique (tx_hash, log_index)
  )`,
  `create index market_trading_events_block on market_trading_events (block_number)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of CHAIN_LISTINGS) await sql.raw(statement).execute(db);
}
