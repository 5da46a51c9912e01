/**
 * One budget per account for everything the SSO does with its custodial key: on-chain actions (POST /sso/actions)
 * and signed market orders (POST /sso/signOrder) both count here, against DEFAULT_EXECUTOR_POLICY.rate.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../../types";

/**
 * Counts one request of the account, unless `max` were counted in the window: then null and the time until the
 * oldest leaves it.
 *
 * Why this holds with many writers at once, not only behind SQLite's one writer (decision 0010): the budget is `max`
 * slots, rows keyed (user_id, slot) with slot < max, each holding the time of the last request counted in it. A
 * request is counted by one statement, an upsert into one slot that writes only if the slot is free (never used, or
 * its time has left the window). The primary key lets no two rows hold one slot, and the upsert's condition is
 * checked on the row as it stands when the statement writes it (under PostgreSQL's READ COMMITTED, after waiting for
 * any other writer of that row), so two requests can never both take one slot. Each request in the window holds its
 * own slot, so at most `max` are counted in any window. (The old insert-if-count-below-max read a count that cannot
 * see other transactions' uncommitted inserts: concurrent requests all saw room.) Which slots to try is read first;
 * a slot taken meanwhile only makes its upsert write nothing, and the next one is tried.
 */
export async function takeCustodialRate(
  db: Kysely<Database>,
  userId: number,
  max: number,
  windowMs: number,
  at = Date.now(),
): Promise<{ retryInMs: number } | null> {
  const since = new Date(at - windowMs).toISOString();
  const used = await db.selectFrom("action_rate").select(["slot", "at"]).where("user_id", "=", userId).where("slot", "<", max).execute();
  const byNumber = new Map(used.map((row) => [row.slot, row.at]));
  const free = [
    ...Array.from({ length: max }, (_, slot) => slot).filter((slot) => !byNumber.has(slot)),
    ...used
      .filter((row) => row.at <= since)
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
      .map((row) => row.slot),
  ];
  for (const slot of free) {
    const taken = await sql`insert into action_rate (user_id, slot, at) values (${userId}, ${slot}, ${new Date(at).toISOString()})
      on conflict (user_id, slot) do update set at = excluded.at where action_rate.at <= ${since}`.execute(db);
    if (taken.numAffectedRows === 1n) return null;
  }
  const oldest = await db
    .selectFrom("action_rate")
    .select("at")
    .where("user_id", "=", userId)
    .where("slot", "<", max)
    .where("at", ">", since)
    .orderBy("at")
    .limit(1)
    .executeTakeFirst();
  return { retryInMs: oldest ? Date.parse(oldest.at) + windowMs - at : windowMs };
}
