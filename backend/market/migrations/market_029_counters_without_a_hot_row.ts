import { type Kysely, sql } from "kysely";
import { listedCellsStatements } from "../shared/listed-cells";
import { SALE_DAYS, SALE_HOURS, shardedSaleDaysTable } from "../shared/sale-days";
import { SHARDS, shardSql } from "../shared/shards";
import { COUNTED_LISTING_COLUMNS } from "./market_004_listing_generation";

/** The listing generation's triggers (market_004), by name: event, and the listing row whose shard it bumps. */
export const LISTING_GENERATION_TRIGGERS = [
  ["insert", "after insert on market_listings", "new"],
  ["delete", "after delete on market_listings", "old"],
  ["update", `after update of ${COUNTED_LISTING_COLUMNS.join(", ")} on market_listings`, "new"],
] as const;

/** The page generation's triggers on listings and items (market_011/015), bumping the listing's slot, not a random one. */
export const PAGE_GENERATION_TRIGGERS = [
  ["listing_insert", "after insert on market_listings", "new.id"],
  ["listing_delete", "after delete on market_listings", "old.id"],
  ["listing_update", "after update on market_listings", "new.id"],
  [
    "item_update",
    "after update on market_items when exists (select 1 from market_listings where item_id = new.id and status = 0)",
    // One active listing per item (its unique key): the item's change counts in that listing's slot.
    "(select id from market_listings where item_id = new.id and status = 0)",
  ],
] as const;

/** The daily volume (market_001) with its shard. */
const DAILY_VOLUME = `create table market_daily_volume (
    day text not null,
    nft_type integer not null,
    currency text not null,
    volume text not null,
    trades integer not null,
    shard integer not null,
    primary key (day, nft_type, currency, shard)
  ) without rowid`;

/** Moves `table` aside, creates it again by `create`, copies its rows into shard 0 and drops the old copy. */
async function rebuildWithShard(db: Kysely<unknown>, table: string, create: string): Promise<void> {
  await sql.raw(`alter table ${table} rename to ${table}_unsharded`).execute(db);
  await sql.raw(create).execute(db);
  await sql.raw(`insert into ${table} select *, 0 from ${table}_unsharded`).execute(db);
  await sql.raw(`drop table ${table}_unsharded`).execute(db);
}

/**
 * Counters without a hot row (issue 44, decision 0034): every counter a trade moves is split into SHARDS rows per key
 * and a write about a listing moves only the row of its shard (shards.ts: its id modulo SHARDS); readers sum.
 * - The listing generation (market_004) becomes SHARDS slots, like the page generation (market_015); its old value
 *   carries into slot 0, so the sum never goes back. The page generation's listing and item triggers bump the
 *   listing's slot instead of a random one (offers keep theirs: they are not trades).
 * - The listed cells are counted again from the active listings, per shard.
 * - The sale rollups (days and hours) and the daily volume get a shard column, last in their keys; their rows carry
 *   into shard 0, so every sum stays what it was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table market_listing_generation_slots (slot integer primary key, value integer not null)`).execute(db);
  for (let slot = 0; slot < SHARDS; slot++) {
    await sql`insert into market_listing_generation_slots (slot, value) values (${slot}, 0)`.execute(db);
  }
  await sql`update market_listing_generation_slots set value = (select value from market_listing_generation where id = 1) where slot = 0`.execute(
    db,
  );
  for (const [name, when, row] of LISTING_GENERATION_TRIGGERS) {
    await sql.raw(`drop trigger market_listing_generation_${name}`).execute(db);
    await sql
      .raw(
        `create trigger market_listing_generation_${name} ${when} begin
           update market_listing_generation_slots set value = value + 1 where slot = ${shardSql(`${row}.id`)};
         end`,
      )
      .execute(db);
  }
  await sql`drop table market_listing_generation`.execute(db);

  for (const [name, when, id] of PAGE_GENERATION_TRIGGERS) {
    await sql.raw(`drop trigger market_page_generation_${name}`).execute(db);
    await sql
      .raw(
        `create trigger market_page_generation_${name} ${when} begin
           update market_page_generation_slots set value = value + 1 where slot = ${shardSql(id)};
         end`,
      )
      .execute(db);
  }

  for (const name of ["insert", "delete", "update"]) await sql.raw(`drop trigger market_listings_listed_cells_${name}`).execute(db);
  await sql`drop table market_listed_cells`.execute(db);
  for (const statement of listedCellsStatements("sqlite")) await sql.raw(statement).execute(db);

  for (const unit of [SALE_DAYS, SALE_HOURS]) await rebuildWithShard(db, unit.table, shardedSaleDaysTable(unit));
  await rebuildWithShard(db, "market_daily_volume", DAILY_VOLUME);
}
