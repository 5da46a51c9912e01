import type { Kysely } from "kysely";
import { backfillOfferSales } from "../items";

/** Offer sales count in a view's numbers: each gets its sold listing (items.ts insertOfferSale, decision 0022). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await backfillOfferSales(db, "sqlite");
}
