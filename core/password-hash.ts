import { sha256, stringToBytes } from "viem";

/**
 * product §5: passwords are hashed before they are sent to the SSO API. The app applies the hash on the server,
 * so browsers without JavaScript sign in too; the API contract (a hash, never the password) is kept.
 * The SSO backend then stores a slow KDF of this value. Plain sha256 (no Node API), lower-case hex.
 */
export function prehashPassword(password: string): string {
  return sha256(stringToBytes(`spark-era:${password}`)).slice(2);
}
