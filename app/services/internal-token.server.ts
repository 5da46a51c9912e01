import { randomBytes } from "node:crypto";

// server.ts and the Remix build each load their own copy of this module: one token for both, keyed globally.
const KEY = Symbol.for("spark-era.internal-token");
const holder = globalThis as typeof globalThis & { [KEY]?: string };

/**
 * A random token made once per process. The app puts it on its own calls to the embedded backends; only a
 * request carrying it skips the rate limits and may name the browser it speaks for. Never sent elsewhere.
 */
export function internalToken(): string {
  return (holder[KEY] ??= randomBytes(32).toString("hex"));
}
