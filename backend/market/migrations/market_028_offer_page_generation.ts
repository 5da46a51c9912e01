import { type Kysely, sql } from "kysely";
import { PAGE_GENERATION_SLOTS } from "./market_015_split_page_generation";

/**
 * A made or deleted offer moves the market pages' generation too (market_021 moved it on an update only): a visitor's
 * item page shows the open offers now (issue 42), and a cached copy must not miss a new one.
 */
export const OFFER_GENERATION_EVENTS = ["insert", "delete"] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const event of OFFER_GENERATION_EVENTS) {
    await sql
      .raw(
        `create trigger market_page_generation_offer_${event} after ${event} on market_offers begin
           update market_page_generation_slots set value = value + 1 where slot = abs(random() % ${PAGE_GENERATION_SLOTS});
         end`,
      )
      .execute(db);
  }
}
