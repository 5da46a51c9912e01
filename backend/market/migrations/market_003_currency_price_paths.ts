import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create index market_listings_a_grade_currency_price on market_listings (nft_type, grade, currency, price) where status = 0`)
    .execute(db);
  await sql
    .raw(`create index market_listings_a_camp_currency_price on market_listings (nft_type, camp, currency, price) where status = 0`)
    .execute(db);
}
