import { type Kysely, sql } from "kysely";
import { ApiError } from "../../http";
import { codeMail, type SendMail } from "../mail";
import { type Secrets, equalHex, newEmailCode } from "../shared/secrets";
import type { CodePurpose } from "../shared/tables";
import type { BackendLog, Database } from "../../types";
import { lockSubject, retryingTransaction } from "../../db/sql";

export const CODE_TTL_MS = 10 * 60 * 1000;
export const RESEND_COOLDOWN_MS = 60 * 1000;
/** Codes one email may receive per purpose and hour: enough for typos, too few to spam an inbox. */
export const CODES_PER_HOUR = 5;
export const MAX_WRONG_ATTEMPTS = 5;
const HOUR_MS = 60 * 60 * 1000;

export const CODE_EXPIRED = "The verification code has expired or was not requested, please request a new one";
export const CODE_WRONG = "Incorrect verification code";
export const CODE_LOCKED = "Too many wrong attempts, please request a new code";

type CheckOutcome = "ok" | "expired" | "wrong" | "locked";

/**
 * Email codes: 6 digits, stored as a keyed hash, purpose-scoped, valid 10 minutes, single use,
 * dead after 5 wrong guesses. A guess takes an attempt by a conditional increment before it is compared, so parallel
 * guesses cannot overrun the attempt limit even where transactions run concurrently (decision 0010).
 */
export function createCodes(db: Kysely<Database>, secrets: Secrets, sendMail: SendMail, log: BackendLog = console) {
  async function reserve(email: string, purpose: CodePurpose, code: string): Promise<number> {
    return retryingTransaction(db, async (trx) => {
      // The cooldown and the hourly cap read the codes sent before: sends to one address and purpose take turns, on
      // every process, so each reads the ones committed before it (decision 0031).
      await lockSubject(trx, `email_codes:${purpose}:${email}`);
      const now = Date.now();
      const recent = await trx
        .selectFrom("email_codes")
        .select("created_at")
        .where("email", "=", email)
        .where("purpose", "=", purpose)
        .where("created_at", ">", new Date(now - HOUR_MS).toISOString())
        .orderBy("created_at", "desc")
        .execute();
      const waitMs = recent.length ? Date.parse(recent[0].created_at) + RESEND_COOLDOWN_MS - now : 0;
      if (waitMs > 0) {
        throw new ApiError(429, `Please wait ${Math.ceil(waitMs / 1000)} seconds before requesting another code`);
      }
      if (recent.length >= CODES_PER_HOUR) {
        throw new ApiError(429, "Too many codes were requested for this email, please try again in an hour");
      }
      // A new code replaces any earlier one still open.
      await trx
        .updateTable("email_codes")
        .set({ consumed_at: new Date(now).toISOString() })
        .where("email", "=", email)
        .where("purpose", "=", purpose)
        .where("consumed_at", "is", null)
        .execute();
      const row = await trx
        .insertInto("email_codes")
        .values({
          email,
          purpose,
          code_hash: secrets.hashCode(email, purpose, code),
          created_at: new Date(now).toISOString(),
          expires_at: new Date(now + CODE_TTL_MS).toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  async function outcome(email: string, purpose: CodePurpose, code: string, consume: boolean): Promise<CheckOutcome> {
    return retryingTransaction(db, async (trx) => {
      const now = new Date().toISOString();
      const row = await trx
        .selectFrom("email_codes")
        .select(["id", "code_hash", "attempts", "expires_at"])
        .where("email", "=", email)
        .where("purpose", "=", purpose)
        .where("consumed_at", "is", null)
        .orderBy("id", "desc")
        .executeTakeFirst();
      if (!row || row.expires_at <= now) return "expired";
      // A guess first takes one of the 5 attempts, by a conditional increment, and only then is compared: two
      // guesses can never both take the last attempt, however their transactions interleave (decision 0010).
      const taken = await trx
        .updateTable("email_codes")
        .set({ attempts: sql<number>`attempts + 1` })
        .where("id", "=", row.id)
        .where("attempts", "<", MAX_WRONG_ATTEMPTS)
        .executeTakeFirst();
      if (taken.numUpdatedRows !== 1n) return "locked";
      if (!equalHex(row.code_hash, secrets.hashCode(email, purpose, code))) return "wrong";
      // The right code gives its attempt back (only wrong guesses count); with consume it is used up, once.
      const settled = await trx
        .updateTable("email_codes")
        .set(consume ? { attempts: sql<number>`attempts - 1`, consumed_at: now } : { attempts: sql<number>`attempts - 1` })
        .where("id", "=", row.id)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      if (settled.numUpdatedRows !== 1n) return "expired";
      return "ok";
    });
  }

  return {
    /** Creates a code and mails it; 429 within the resend cooldown or over the hourly cap. */
    async send(email: string, purpose: CodePurpose): Promise<void> {
      const code = newEmailCode();
      const id = await reserve(email, purpose, code);
      try {
        await sendMail(codeMail(email, purpose, code, CODE_TTL_MS / 60_000));
      } catch (error) {
        // Unsent: drop the code so the cooldown does not hold back a retry.
        await db.deleteFrom("email_codes").where("id", "=", id).execute();
        log.error("Sending a verification code failed", error);
        throw new ApiError(502, "The email could not be sent, please try again later");
      }
    },

    /** Throws a 400 unless the code is the live one; with consume, it is used up. */
    async check(email: string, purpose: CodePurpose, code: string, { consume }: { consume: boolean }): Promise<void> {
      const result = await outcome(email, purpose, code, consume);
      if (result === "expired") throw new ApiError(400, CODE_EXPIRED);
      if (result === "locked") throw new ApiError(400, CODE_LOCKED);
      if (result === "wrong") throw new ApiError(400, CODE_WRONG);
    },
  };
}

export type Codes = ReturnType<typeof createCodes>;
