import type { Kysely } from "kysely";
import { sql } from "kysely";
import { SALE_DAYS, backfillSaleDays, saleDaysTable } from "../shared/sale-days";

/** Per-UTC-day rollups of sales for the numbers and history of a view (backend/market/shared/sale-days.ts, decision 0022). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`${saleDaysTable("text")} without rowid`).execute(db);
  await backfillSaleDays(db, "sqlite", [SALE_DAYS], false);
}
