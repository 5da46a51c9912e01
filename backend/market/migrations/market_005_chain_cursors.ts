import { type Kysely, sql } from "kysely";

/** The chain indexer's cursors: per stream of followed events, the last block applied, moved with the writes it covers. */
const CHAIN_CURSORS = `create table market_chain_cursors (
  stream text primary key,
  block integer not null,
  updated_at integer not null
) without rowid`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(CHAIN_CURSORS).execute(db);
}
