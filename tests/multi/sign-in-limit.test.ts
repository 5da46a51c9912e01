/**
 * The sign-in limit is one limit for the site, not one per process (issue 27, REDIS_URL): the auth tier's 10
 * attempts a minute (RATE_LIMIT_MULTIPLIER is 1 in this cluster) from one client, spread over the three servers,
 * and its next attempt is refused whichever server it reaches. Another client is not affected.
 */
import { describe, expect, it } from "vitest";
import { prehashPassword } from "~core/password-hash";
import { Client, superviseCluster, servers } from "./support";

superviseCluster();

/** The auth tier (server/rate-limit.ts) at the multiplier 1. */
const AUTH_LIMIT = 10;
const TOO_MANY = "Too many attempts. Please wait a minute and try again.";

/** A sign-in with a wrong password for an address no one has: counted by the tier, and no account's lock is touched. */
const attempt = (client: Client, url: string) =>
  client.request(url, "/basic/login", {
    json: { UserName: `nobody-${client.ip.replaceAll(".", "-")}@sparkera.test`, Passsword: prehashPassword("Wrong-pass-1") },
  });

describe("the sign-in limit across processes", () => {
  it("refuses the client's next attempt at the limit on every server, and only that client's", async () => {
    const list = await servers();
    const client = new Client();
    // One at a time, round the servers: each is answered, none refused by the limit.
    for (let i = 0; i < AUTH_LIMIT; i++) {
      const answer = await attempt(client, list[i % list.length].url);
      expect(answer.status, `attempt ${i + 1} on server ${i % list.length}: ${answer.body.msg}`).not.toBe(429);
      expect(answer.status).toBeLessThan(500);
    }
    // The limit is reached: each server refuses the next one, whichever it is.
    for (const server of list) {
      const answer = await attempt(client, server.url);
      expect(answer.status, `server ${server.index} after the limit: ${answer.body.msg}`).toBe(429);
      expect(answer.body.msg).toBe(TOO_MANY);
    }
    // Another client, on the same servers, still signs in (is answered, not limited).
    const other = new Client();
    for (const server of list) expect((await attempt(other, server.url)).status).not.toBe(429);
  });
});
