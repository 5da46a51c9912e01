import type { Kysely } from "kysely";
import { sql } from "kysely";
import { backfillOfferSales } from "../shared/items";
import { listedCellsStatements } from "../shared/listed-cells";
import { SALE_HOURS, backfillSaleDays, saleDaysTable } from "../shared/sale-days";

/**
 * A view's numbers (decision 0022): sales rolled up per hour too (sale-days.ts), offer sales count, each given its sold
 * listing (items.ts insertOfferSale), and active listings are counted per rollup cell (listed-cells.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`${saleDaysTable("text", SALE_HOURS)} without rowid`).execute(db);
  // The rollups have no shards yet (market_029).
  await backfillSaleDays(db, "sqlite", [SALE_HOURS], false);
  await backfillOfferSales(db, "sqlite", false);
  for (const statement of listedCellsStatements("sqlite")) await sql.raw(statement).execute(db);
}
