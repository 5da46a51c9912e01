import { createHash } from "node:crypto";

/**
 * SPEC §5: passwords are hashed before they are sent to the SSO API. We apply the hash on the server,
 * so browsers without JavaScript sign in too; the API contract (a hash, never the password) is kept.
 * The SSO backend then stores a slow KDF of this value.
 */
export function prehashPassword(password: string): string {
  return createHash("sha256").update(`spark-era:${password}`, "utf8").digest("hex");
}
