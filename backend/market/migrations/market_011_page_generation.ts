import { type Kysely, sql } from "kysely";

/**
 * The market pages' generation: moves on every change to what a market page shows of what is on sale. Unlike the
 * listing generation (market_004) it also moves with the view and favorite counters (the item cards show them) and with any
 * change to an item while it is listed. The app's page cache for visitors (server/page-cache.ts) keys market pages by
 * it, so a cached page is always the page the market would render now.
 */
const PAGE_GENERATION = [
  `create table market_page_generation (id integer primary key check (id = 1), value integer not null)`,
  `insert into market_page_generation (id, value) values (1, 0)`,
  ...[
    ["listing_insert", "after insert on market_listings"],
    ["listing_delete", "after delete on market_listings"],
    ["listing_update", "after update on market_listings"],
    ["item_update", "after update on market_items when exists (select 1 from market_listings where item_id = new.id and status = 0)"],
  ].map(
    ([name, when]) =>
      `create trigger market_page_generation_${name} ${when} begin update market_page_generation set value = value + 1 where id = 1; end`,
  ),
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of PAGE_GENERATION) await sql.raw(statement).execute(db);
}
