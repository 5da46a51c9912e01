/** A view's sales as its numbers and history count them (decision 0022), for tests of what counts as a sale. */
import { listingQuerySchema } from "../../backend/market/shared/listing-schemas";
import { computeHistory, computeViewNumbers } from "../../backend/market/stats/view-numbers";
import type { Sql } from "../../backend/market/shared/db";

/**
 * The view's numbers at `now` and its sales over all time by its history, each from the rollups, after checking
 * that the rollups answer as the raw computation does.
 */
export async function viewSales(db: Sql, input: Record<string, unknown>, now: number) {
  const query = listingQuerySchema.parse(input);
  const numbers = await computeViewNumbers(db, query, now);
  const history = await computeHistory(db, { query }, "all", now);
  if (JSON.stringify(numbers) !== JSON.stringify(await computeViewNumbers(db, query, now, false))) {
    throw new Error(`numbers of ${JSON.stringify(input)}: the rollups and the raw sales disagree`);
  }
  if (JSON.stringify(history) !== JSON.stringify(await computeHistory(db, { query }, "all", now, false))) {
    throw new Error(`history of ${JSON.stringify(input)}: the rollups and the raw sales disagree`);
  }
  const sales = history.series.flatMap((series) => series.points).reduce((sum, point) => sum + point.sales, 0);
  return { numbers, sales };
}
