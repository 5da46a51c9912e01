import { type Kysely, sql } from "kysely";

/** A price sort groups by currency (issue 23), so it walks the (…, currency, price) paths only. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index market_listings_a_grade_price`.execute(db);
  await sql`drop index market_listings_a_camp_price`.execute(db);
}
