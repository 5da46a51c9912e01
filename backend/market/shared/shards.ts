/**
 * The market's counters without a hot row (decision 0034): every counter a listing write or a sale moves (the listing
 * and page generations, the listed cells, the sale rollups, the daily volume) is kept in SHARDS rows per key, and the
 * writes about a listing touch only the row of its shard, its id modulo SHARDS. Readers sum the shards. Trades on
 * listings of different shards then share no row, so on PostgreSQL they commit side by side instead of queueing on
 * one row lock.
 */

/** How many rows each counter is split over. */
export const SHARDS = 8;

/** The shard of a listing's counters; a sale without a listing (an old chain offer's) counts in shard 0. */
export function shardOf(listingId: number | null | undefined): number {
  return listingId == null ? 0 : Number(listingId) % SHARDS;
}

/** The shard of the listing id `id` (a SQL expression: `new.id`), in SQL. */
export function shardSql(id: string): string {
  return `${id} % ${SHARDS}`;
}
