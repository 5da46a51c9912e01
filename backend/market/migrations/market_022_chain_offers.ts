import { type Kysely, sql } from "kysely";

/**
 * Chain offers (issue 30, decision 0024): a buyer's signed Trading TradeOffer (core/trading.ts) kept in market_offers
 * (venue 1) beside the ledger's, with the signed fields acceptOffer takes (uint256 and uint96 ones as decimal text;
 * `nonce` holds the salt, `counter` the buyer's Trading counter) and its order hash, the key of the OfferAccepted and
 * OfferCancelled events the trading stream (indexer/trading.ts) closes it from.
 */
const CHAIN_OFFERS = [
  `alter table market_offers add column collection text`,
  `alter table market_offers add column standard integer`,
  `alter table market_offers add column amount text`,
  `alter table market_offers add column data_mask text`,
  `alter table market_offers add column data_value text`,
  `alter table market_offers add column order_hash text`,
  `create unique index market_offers_order_hash on market_offers (order_hash) where order_hash is not null`,
  // CounterIncremented closes a buyer's open chain offers signed under a lower counter.
  `create index market_offers_a_chain_buyer on market_offers (buyer_address) where status = 0 and venue = 1`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of CHAIN_OFFERS) await sql.raw(statement).execute(db);
}
