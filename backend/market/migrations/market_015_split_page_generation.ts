import { type Kysely, sql } from "kysely";

/** How many rows the page generation is split over. */
export const PAGE_GENERATION_SLOTS = 8;

const TRIGGERS = [
  ["listing_insert", "after insert on market_listings"],
  ["listing_delete", "after delete on market_listings"],
  ["listing_update", "after update on market_listings"],
  ["item_update", "after update on market_items when exists (select 1 from market_listings where item_id = new.id and status = 0)"],
];

/**
 * The market pages' generation (market_011) as a split counter (decision 0010): every writer bumped the one row, so
 * concurrent writers queued on its lock (and, under PostgreSQL, retried on it). Now a writer bumps one of
 * PAGE_GENERATION_SLOTS rows chosen at random and a reader sums them. Each bump adds 1 to the sum, so the sum moves
 * on every change exactly as the one value did; the old value carries over into slot 0, so it never goes back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table market_page_generation_slots (slot integer primary key, value integer not null)`.execute(db);
  for (let slot = 0; slot < PAGE_GENERATION_SLOTS; slot++) {
    await sql`insert into market_page_generation_slots (slot, value) values (${slot}, 0)`.execute(db);
  }
  await sql`update market_page_generation_slots set value = (select value from market_page_generation where id = 1) where slot = 0`.execute(
    db,
  );
  for (const [name, when] of TRIGGERS) {
    await sql.raw(`drop trigger market_page_generation_${name}`).execute(db);
    // random() % n is in (-n, n); abs() of that cannot overflow (abs(random()) can, for the smallest 64-bit integer).
    await sql
      .raw(
        `create trigger market_page_generation_${name} ${when} begin
           update market_page_generation_slots set value = value + 1 where slot = abs(random() % ${PAGE_GENERATION_SLOTS});
         end`,
      )
      .execute(db);
  }
  await sql`drop table market_page_generation`.execute(db);
}
