import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table market_claims add column request_key text`.execute(db);
  await sql`create unique index market_claims_request_key on market_claims (account, request_key) where request_key is not null`.execute(
    db,
  );
}
