import type { Kysely } from "kysely";
import { sql } from "kysely";
import { backfillOfferSales } from "../items";
import { listedCellsStatements } from "../listed-cells";

/**
 * A view's numbers (decision 0022): offer sales count, each given its sold listing (items.ts insertOfferSale), and
 * active listings are counted per rollup cell (listed-cells.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await backfillOfferSales(db, "sqlite");
  for (const statement of listedCellsStatements("sqlite")) await sql.raw(statement).execute(db);
}
