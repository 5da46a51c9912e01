/**
 * One budget per account for everything the SSO does with its custodial key: on-chain actions (POST /sso/actions)
 * and signed market orders (POST /sso/signOrder) both count here, against DEFAULT_EXECUTOR_POLICY.rate.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../db";

/**
 * Counts one request of the account, unless `max` were counted in the window: then null and the time until the
 * oldest leaves it. One statement checks and counts, so parallel requests cannot slip past.
 */
export async function takeCustodialRate(
  db: Kysely<Database>,
  userId: number,
  max: number,
  windowMs: number,
): Promise<{ retryInMs: number } | null> {
  const at = Date.now();
  const since = new Date(at - windowMs).toISOString();
  await db.deleteFrom("action_rate").where("user_id", "=", userId).where("at", "<=", since).execute();
  const taken = await sql`insert into action_rate (user_id, at)
    select ${userId}, ${new Date(at).toISOString()}
    where (select count(*) from action_rate where user_id = ${userId} and at > ${since}) < ${max}`.execute(db);
  if (taken.numAffectedRows === 1n) return null;
  const oldest = await db
    .selectFrom("action_rate")
    .select("at")
    .where("user_id", "=", userId)
    .where("at", ">", since)
    .orderBy("at")
    .limit(1)
    .executeTakeFirst();
  return { retryInMs: oldest ? Date.parse(oldest.at) + windowMs - at : windowMs };
}
