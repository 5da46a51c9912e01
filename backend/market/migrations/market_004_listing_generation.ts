import { type Kysely, sql } from "kysely";
import { ATTRIBUTE_COLUMNS } from "./market_001_core";

/** Columns a market count can depend on: everything but the views and favorites counters. */
export const COUNTED_LISTING_COLUMNS = [
  "item_id",
  "nft_type",
  "status",
  "price",
  "currency",
  "grade",
  ...[...ATTRIBUTE_COLUMNS.matchAll(/(\w+) integer/g)].map((m) => m[1]),
];

/**
 * A generation number that every change to the set of active listings (or to what they are filtered by)
 * moves on, kept by triggers so that no writer can forget it: the market's count cache is valid while it
 * stands still (query.ts). View and favorite counters do not move it.
 */
const LISTING_GENERATION = [
  `create table market_listing_generation (id integer primary key check (id = 1), value integer not null)`,
  `insert into market_listing_generation (id, value) values (1, 0)`,
  ...[
    ["insert", "after insert on market_listings"],
    ["delete", "after delete on market_listings"],
    ["update", `after update of ${COUNTED_LISTING_COLUMNS.join(", ")} on market_listings`],
  ].map(
    ([name, when]) =>
      `create trigger market_listing_generation_${name} ${when} begin update market_listing_generation set value = value + 1 where id = 1; end`,
  ),
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of LISTING_GENERATION) await sql.raw(statement).execute(db);
}
