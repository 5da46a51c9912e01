import { type Kysely, sql } from "kysely";

/**
 * Offers (issue 30, decision 0023): a buyer's signed Offer order (core/orders.ts) for one item (item_id and token_id set,
 * filter '') or for any item of a market filter (a collection offer: no item, `filter` the canonical listing query it
 * covers). `venue` says how it is accepted: 0 a trade on the game ledger, 1 the chain's Trading contract. Status 0
 * active, 1 accepted, 2 cancelled. Prices are wei zero-padded to 78 digits like listings'. A buyer's offers have their
 * own cancel-all counter (market_offer_counters), apart from the listings'. An offer's change moves the page generation:
 * an accepted offer changes an item's owner even when it was not listed.
 */
const OFFERS = [
  `create table market_offers (
    id integer primary key,
    venue integer not null default 0,
    buyer_address text not null,
    nft_type integer not null,
    item_id integer references market_items (id),
    token_id text,
    filter text not null default '',
    label text not null default '',
    price text not null check (length(price) = 78),
    currency text not null,
    counter text not null,
    nonce text not null,
    expiry integer not null,
    signature text not null,
    status integer not null default 0,
    created_at integer not null,
    closed_at integer,
    seller_address text,
    accepted_item_id integer references market_items (id),
    accept_signature text,
    cancel_signature text
  )`,
  `create index market_offers_a_item on market_offers (item_id) where status = 0`,
  `create index market_offers_a_collection on market_offers (nft_type) where status = 0 and item_id is null`,
  `create index market_offers_buyer on market_offers (buyer_address, status, created_at)`,
  `create table market_offer_counters (address text primary key, counter integer not null default 0)`,
  `create trigger market_page_generation_offer_update after update on market_offers begin
     update market_page_generation_slots set value = value + 1 where slot = abs(random() % 8);
   end`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of OFFERS) await sql.raw(statement).execute(db);
}
