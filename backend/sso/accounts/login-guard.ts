import { type Kysely, type Transaction, sql } from "kysely";
import type { Database } from "../../types";
import { ApiError } from "../../http";
import { retryingTransaction } from "../../db/sql";

const MINUTE = 60_000;

/**
 * Password-guessing budgets. Each is a window that opens at its first failure; spending the budget locks for
 * `lockMs`. One client's failures lock out only that client, so nobody can lock the owner out by failing on
 * purpose. The account's budget across all clients caps a distributed attacker; it sits above what one client
 * can spend in its window (10 per 15 minutes, so at most 40 an hour), so no single client can trip it.
 */
export const LOGIN_LIMITS = {
  client: { maxFailures: 10, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  account: { maxFailures: 100, windowMs: 60 * MINUTE, lockMs: 60 * MINUTE },
} as const;

type Limit = (typeof LOGIN_LIMITS)[keyof typeof LOGIN_LIMITS];

/** The `client` of the row that holds the account's budget across all clients (no address looks like this). */
const ANY_CLIENT = "*";

const minutes = (ms: number) => {
  const n = Math.max(1, Math.ceil(ms / MINUTE));
  return `${n} minute${n > 1 ? "s" : ""}`;
};

export const clientLockedMessage = (ms: number) => `Too many failed sign-in attempts, please try again in ${minutes(ms)}`;
export const accountLockedMessage = (ms: number) =>
  `Too many failed sign-in attempts on this account, please try again in ${minutes(ms)} or reset your password`;

/** A sign-in attempt counted in both budgets while its password is checked. */
export interface LoginAttempt {
  userId: number;
  client: string;
  /** The account budget's window the attempt was counted in, so a refund never lands in a later window. */
  accountWindow: string;
}

/**
 * Counts a sign-in attempt before the slow password check, so parallel guesses cannot all pass a check made
 * before any of them failed. A failed attempt stays counted; a successful one clears its client's failures and
 * gives its unit of the account budget back.
 */
export function createLoginGuard(db: Kysely<Database>) {
  /**
   * Counts one attempt in a budget, in one statement that checks and increments. Returns the budget's window;
   * throws the 429 when the budget is spent, leaving the row as it was.
   */
  async function take(trx: Transaction<Database>, userId: number, client: string, limit: Limit, now: number): Promise<string> {
    const nowIso = new Date(now).toISOString();
    // A locked row starts afresh when its lock lapses, an unlocked one when its window has passed.
    const fresh = sql<boolean>`(case when login_attempts.locked_until is null
      then login_attempts.window_start <= ${new Date(now - limit.windowMs).toISOString()}
      else login_attempts.locked_until <= ${nowIso} end)`;
    const row = await trx
      .insertInto("login_attempts")
      .values({ user_id: userId, client, failures: 1, window_start: nowIso, locked_until: null })
      .onConflict((oc) =>
        oc
          .columns(["user_id", "client"])
          .doUpdateSet({
            failures: sql`case when ${fresh} then 1 else login_attempts.failures + 1 end`,
            window_start: sql`case when ${fresh} then ${nowIso} else login_attempts.window_start end`,
            // The attempt that spends the budget sets the lock at once: later ones are refused without a check.
            locked_until: sql`case when not ${fresh} and login_attempts.failures + 1 >= ${limit.maxFailures}
              then ${new Date(now + limit.lockMs).toISOString()} end`,
          })
          .where(sql<boolean>`${fresh} or (login_attempts.locked_until is null and login_attempts.failures < ${limit.maxFailures})`),
      )
      .returning("window_start")
      .executeTakeFirst();
    if (row) return row.window_start;

    const { locked_until } = await trx
      .selectFrom("login_attempts")
      .select("locked_until")
      .where("user_id", "=", userId)
      .where("client", "=", client)
      .executeTakeFirstOrThrow();
    const remainingMs = locked_until ? Date.parse(locked_until) - now : limit.lockMs;
    throw new ApiError(429, client === ANY_CLIENT ? accountLockedMessage(remainingMs) : clientLockedMessage(remainingMs));
  }

  return {
    /** Counts an attempt by `client` on the account, or throws the 429 of the spent budget. */
    async reserve(userId: number, client: string): Promise<LoginAttempt> {
      // One transaction: an attempt refused by the account budget does not stay counted against its client.
      return retryingTransaction(db, async (trx) => {
        const now = Date.now();
        await trx
          .deleteFrom("login_attempts")
          .where("user_id", "=", userId)
          .where("window_start", "<=", new Date(now - LOGIN_LIMITS.account.windowMs).toISOString())
          .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", new Date(now).toISOString())]))
          .execute();
        await take(trx, userId, client, LOGIN_LIMITS.client, now);
        const accountWindow = await take(trx, userId, ANY_CLIENT, LOGIN_LIMITS.account, now);
        return { userId, client, accountWindow };
      });
    },

    /** The password was right: the client starts clean and the account budget gets the attempt back. */
    async succeeded({ userId, client, accountWindow }: LoginAttempt): Promise<void> {
      await retryingTransaction(db, async (trx) => {
        await trx.deleteFrom("login_attempts").where("user_id", "=", userId).where("client", "=", client).execute();
        await trx
          .updateTable("login_attempts")
          .set({
            failures: sql`failures - 1`,
            locked_until: sql`case when failures - 1 < ${LOGIN_LIMITS.account.maxFailures} then null else locked_until end`,
          })
          .where("user_id", "=", userId)
          .where("client", "=", ANY_CLIENT)
          .where("window_start", "=", accountWindow)
          .where("failures", ">", 0)
          .execute();
      });
    },

    /** A password reset proves the owner: every lock and count of the account goes. */
    async clear(userId: number): Promise<void> {
      await db.deleteFrom("login_attempts").where("user_id", "=", userId).execute();
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
