import type { Kysely } from "kysely";
import type { Database } from "../../types";
import { hashToken, newToken } from "../shared/secrets";
import type { LoginType } from "~core/api/sso";
import type { SessionRow, UserRow } from "../shared/tables";
import { retryingTransaction } from "../../db/sql";

export interface IssuedSession {
  /** Given to the client once; only its hash is kept. */
  token: string;
  /** ISO 8601 UTC. */
  expiresAt: string;
  session: Pick<SessionRow, "login_type" | "login_identity">;
}

export interface LiveSession {
  session: SessionRow;
  user: UserRow;
}

const TOKEN_FORMAT = /^[0-9a-f]{64}$/;

export function createSessions(db: Kysely<Database>, ttlSeconds: number) {
  return {
    async issue(userId: number, loginType: LoginType, identity: string | null = null): Promise<IssuedSession> {
      const token = newToken();
      const now = new Date();
      const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
      const session = { login_type: loginType, login_identity: identity };
      await retryingTransaction(db, async (trx) => {
        // Dead sessions of this user are of no further use: prune them while we are here.
        await trx
          .deleteFrom("sessions")
          .where("user_id", "=", userId)
          .where((eb) => eb.or([eb("expires_at", "<=", now.toISOString()), eb("revoked_at", "is not", null)]))
          .execute();
        await trx
          .insertInto("sessions")
          .values({ user_id: userId, token_hash: hashToken(token), ...session, created_at: now.toISOString(), expires_at: expiresAt })
          .execute();
      });
      return { token, expiresAt, session };
    },

    /** The unexpired, unrevoked session of a token with its user, or null. */
    async find(token: string): Promise<LiveSession | null> {
      if (!TOKEN_FORMAT.test(token)) return null;
      const session = await db
        .selectFrom("sessions")
        .selectAll()
        .where("token_hash", "=", hashToken(token))
        .where("revoked_at", "is", null)
        .where("expires_at", ">", new Date().toISOString())
        .executeTakeFirst();
      if (!session) return null;
      const user = await db.selectFrom("users").selectAll().where("id", "=", session.user_id).executeTakeFirst();
      return user ? { session, user } : null;
    },

    async revoke(sessionId: number): Promise<void> {
      await db.updateTable("sessions").set({ revoked_at: new Date().toISOString() }).where("id", "=", sessionId).execute();
    },

    /** Signs the user out everywhere, e.g. after a password reset. */
    async revokeAll(userId: number): Promise<void> {
      await db
        .updateTable("sessions")
        .set({ revoked_at: new Date().toISOString() })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .execute();
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
