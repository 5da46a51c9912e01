import { type Kysely, sql } from "kysely";

/** The time of the cursor's block: a pending claim is given back only once the chain is read past its deadline. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table market_chain_cursors add column block_time integer`.execute(db);
}
