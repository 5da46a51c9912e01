import { type Kysely, sql } from "kysely";

/**
 * Named sequences (decision 0010): a number handed out by one atomic statement, `update … set value = value + 1
 * … returning value`, never `max(id) + 1` read before the insert (two writers read the same max). The claim nonce
 * starts past every claim already issued, so no nonce already signed is ever signed again, even if its row goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table market_sequences (name text primary key, value integer not null)`.execute(db);
  await sql`insert into market_sequences (name, value) select 'claim_nonce', coalesce(max(id), 0) from market_claims`.execute(db);
}
