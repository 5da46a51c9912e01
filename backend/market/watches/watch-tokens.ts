/**
 * Unsubscribe links (decision 0021): `<watch id>.<HMAC>`, keyed by a key derived from the server secret for this
 * one purpose, so a link stops the emails of one watch and can do nothing else, and no one can forge one for a
 * watch they were not mailed about.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

const PURPOSE = "watch-unsubscribe";

export function createWatchTokens(secretHex: string) {
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(secretHex, "hex"), Buffer.alloc(0), "spark-era market watch unsubscribe", 32));
  const mac = (watchId: number) => createHmac("sha256", key).update(`${PURPOSE}\n${watchId}`, "utf8").digest("base64url");
  return {
    sign: (watchId: number): string => `${watchId}.${mac(watchId)}`,
    /** The watch a token names, or null for anything not signed by us for unsubscribing. */
    verify(token: string): number | null {
      const match = /^([1-9]\d{0,14})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return null;
      const watchId = Number(match[1]);
      const expected = Buffer.from(mac(watchId));
      const given = Buffer.from(match[2]);
      return expected.length === given.length && timingSafeEqual(expected, given) ? watchId : null;
    },
  };
}

export type WatchTokens = ReturnType<typeof createWatchTokens>;
