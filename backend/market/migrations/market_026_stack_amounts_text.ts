import { type Kysely, sql } from "kysely";

/**
 * A stack's amount is a uint256 balance (decision 0028): `market_items.amount` becomes decimal text, which holds
 * any of them exactly (an integer column stops at 2^63, and JavaScript reads it as a float past 2^53). SQLite cannot
 * change a column's type, so the text column is added, filled from the old one, and takes its name.
 */
const STACK_AMOUNTS_TEXT = [
  `alter table market_items add column amount_text text not null default '1'`,
  `update market_items set amount_text = cast(amount as text)`,
  `alter table market_items drop column amount`,
  `alter table market_items rename column amount_text to amount`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STACK_AMOUNTS_TEXT) await sql.raw(statement).execute(db);
}
