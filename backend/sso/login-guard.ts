import { type Kysely, sql } from "kysely";
import type { Database } from "../db";
import { ApiError } from "../http";
import type { UserRow } from "./tables";

/** After this many wrong passwords within the window, the account is locked for LOCK_MS. */
export const MAX_FAILED_LOGINS = 10;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const LOCK_MS = 15 * 60 * 1000;

/** Slows password guessing per account; the app's Express rate limits slow it per client. */
export function createLoginGuard(db: Kysely<Database>) {
  return {
    assertNotLocked(user: UserRow): void {
      const remainingMs = user.locked_until ? Date.parse(user.locked_until) - Date.now() : 0;
      if (remainingMs > 0) {
        const minutes = Math.ceil(remainingMs / 60_000);
        throw new ApiError(429, `Too many failed sign-in attempts, please try again in ${minutes} minute${minutes > 1 ? "s" : ""}`);
      }
    },

    async recordFailure(userId: number): Promise<void> {
      const now = Date.now();
      const windowOpen = new Date(now - FAILURE_WINDOW_MS).toISOString();
      // One statement: parallel failures cannot lose a count.
      const freshWindow = sql<boolean>`failed_login_window_start is null or failed_login_window_start <= ${windowOpen}`;
      const row = await db
        .updateTable("users")
        .set({
          failed_login_count: sql`case when ${freshWindow} then 1 else failed_login_count + 1 end`,
          failed_login_window_start: sql`case when ${freshWindow} then ${new Date(now).toISOString()} else failed_login_window_start end`,
        })
        .where("id", "=", userId)
        .returning("failed_login_count")
        .executeTakeFirst();
      if (row && row.failed_login_count >= MAX_FAILED_LOGINS) {
        await db
          .updateTable("users")
          .set({ locked_until: new Date(now + LOCK_MS).toISOString(), failed_login_count: 0, failed_login_window_start: null })
          .where("id", "=", userId)
          .execute();
      }
    },

    async clearFailures(user: UserRow): Promise<void> {
      if (user.failed_login_count === 0 && user.locked_until === null) return;
      await db
        .updateTable("users")
        .set({ failed_login_count: 0, failed_login_window_start: null, locked_until: null })
        .where("id", "=", user.id)
        .execute();
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
