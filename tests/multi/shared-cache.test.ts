/**
 * nginx's shared cache in front of the cluster (issue 44, decision 0033; scripts/cluster/nginx.ts): a visitor's
 * market page is kept and served from it, a market change reaches the next visitor within the page's s-maxage, and a
 * signed-in page is never served from it nor kept in it.
 */
import { createCookie, createCookieSessionStorage } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import type { SignIn } from "~core/api/sso";
import { prehashPassword } from "~core/password-hash";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { padWei } from "../../backend/market/shared/money";
import { SHARED_MAX_AGE_SECONDS } from "../../server/cached-page";
import { PASSWORD, clusterInfo, createAccount, servers, sharedDatabase, superviseCluster, waitFor } from "./support";

superviseCluster();
const store = sharedDatabase();
const { cacheUrl, env } = clusterInfo();
const MARKET = "/marketplace/market?sort=listed-asc";

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, { headers, redirect: "manual", signal: AbortSignal.timeout(30_000) });
  const header = (name: string) => response.headers.get(name);
  return {
    status: response.status,
    /** The market generation the page was rendered at (its ETag's first part; an item page's is `<market>.b<block>`). */
    generation: Number(/^"(\d+)[-.]/.exec(header("etag") ?? "")?.[1] ?? NaN),
    body: await response.text(),
    cache: header("x-cache-status"),
    etag: header("etag"),
    cacheControl: header("cache-control"),
  };
}

describe.skipIf(!cacheUrl)("nginx's shared cache in front of the cluster", () => {
  if (!cacheUrl) console.warn("multi: nginx is not installed (apt-get install nginx-light): the shared cache test is skipped");
  const site = cacheUrl!;

  it("serves a visitor's market page from the cache, and the next visitor sees a market change within s-maxage", async () => {
    const first = await get(site, MARKET);
    expect(first.status).toBe(200);
    expect(first.cacheControl).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    const copy = await waitFor("a visitor's market page from nginx's cache", async () => {
      const answer = await get(site, MARKET);
      return answer.cache === "HIT" ? answer : null;
    });
    expect(copy.etag).toBe(first.etag);
    expect(copy.body).toBe(first.body);

    // The market changes: the oldest open listing (the page's first) gets a new price.
    const listing = await store().sql.get<{ id: number }>("select id from market_listings where status = 0 order by listed_at, id limit 1");
    await store().sql.run("update market_listings set price = ? where id = ?", [padWei(987_654_321_000_000_000_000n), listing!.id]);
    const changedAt = Date.now();
    // What the app renders now, asked of a server directly (its ETag names another host, so differs all the same).
    const [server] = await servers();
    const fresh = await get(server!.url, MARKET);
    expect(fresh.generation).toBeGreaterThan(first.generation);
    expect(fresh.body).not.toBe(first.body);

    // Through the cache: the old page at most until its s-maxage runs out, then the new one.
    const seen = await waitFor(
      "the changed market page through nginx",
      async () => {
        const answer = await get(site, MARKET);
        return answer.generation >= fresh.generation ? answer : null;
      },
      { timeoutMs: (SHARED_MAX_AGE_SECONDS + 10) * 1000, intervalMs: 250 },
    );
    const seconds = (Date.now() - changedAt) / 1000;
    console.log(
      `multi: a market change reached the next visitor through nginx after ${seconds.toFixed(1)} s (s-maxage ${SHARED_MAX_AGE_SECONDS} s)`,
    );
    // s-maxage, and the one render that the first request after it waits for.
    expect(seconds).toBeLessThan(SHARED_MAX_AGE_SECONDS + 3);
    expect(seen.body).toBe(fresh.body);
    expect((await get(site, MARKET)).cache).toBe("HIT");
  });

  /** A signed-in player's session cookie, as the login form would set it, and their email. */
  async function signedInCookie() {
    const [server] = await servers();
    const account = await createAccount(server!.url);
    const signIn = await account.client.ok<SignIn>(server!.url, "/basic/login", {
      json: { UserName: account.email, Passsword: prehashPassword(PASSWORD) },
    });
    // The session cookie the login form would set (app/services/session.server.ts), signed with the cluster's secret.
    const { commitSession, getSession } = createCookieSessionStorage({
      cookie: createCookie("__session", { httpOnly: true, sameSite: "lax", path: "/", secrets: env.SESSION_SECRET!.split(",") }),
    });
    const session = await getSession();
    session.set("token", signIn.token);
    session.set("user", signIn.userInfo);
    return { cookie: (await commitSession(session)).split(";", 1)[0]!, email: account.email };
  }

  it("never serves a signed-in page from the cache, nor keeps one", async () => {
    const { cookie, email } = await signedInCookie();
    const account = { email };

    const path = "/marketplace/market?sort=price-desc";
    // A visitor's copy is in the cache first.
    await get(site, path);
    expect((await get(site, path)).cache).toBe("HIT");
    for (let i = 0; i < 3; i++) {
      const signedIn = await get(site, path, { Cookie: cookie });
      expect(signedIn.status).toBe(200);
      expect(signedIn.cache).toBe("BYPASS");
      expect(signedIn.cacheControl).toBe("private, no-cache");
      expect(signedIn.etag).toBeNull();
      expect(signedIn.body).toContain(account.email);
    }
    // Nor does a signed-in page ever land in the cache: a visitor still gets the visitors' copy.
    const visitor = await get(site, path);
    expect(visitor.cache).toBe("HIT");
    expect(visitor.body).not.toContain(account.email);
    // The lite-mode switch is a cookie too: bypassed, private.
    const lite = await get(site, path, { Cookie: "lite=on" });
    expect([lite.cache, lite.cacheControl]).toEqual(["BYPASS", "private, no-cache"]);
  });

  it("serves visitors' item, player and home pages from it, a listing change on an item page within s-maxage, never a signed-in one", async () => {
    const market = await get(site, MARKET);
    const item = /href="(\/marketplace\/detail\?[^"]*)"/.exec(market.body)![1]!.replaceAll("&amp;", "&");
    const pages = [item, `/player/${DEMO_BROWSER_ACCOUNT.wallet}`, "/home", "/marketplace/statistics", "/spaceship/calculator"];
    for (const path of pages) {
      const first = await get(site, path);
      expect(first.status, path).toBe(200);
      expect(first.cacheControl, path).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
      // An item page's first view of the day from this network moves the market: its copy after that one is kept.
      await waitFor(`${path} from nginx's cache`, async () => ((await get(site, path)).cache === "HIT" ? true : null));
    }

    // The item's listing (the market's first, oldest) changes price: the next visitor sees it within s-maxage.
    const before = await waitFor("the item page's copy", async () => {
      const answer = await get(site, item);
      return answer.cache === "HIT" ? answer : null;
    });
    const listing = await store().sql.get<{ id: number }>("select id from market_listings where status = 0 order by listed_at, id limit 1");
    await store().sql.run("update market_listings set price = ? where id = ?", [padWei(123_456_000_000_000_000_000n), listing!.id]);
    const changedAt = Date.now();
    const seen = await waitFor(
      "the changed item page through nginx",
      async () => {
        const answer = await get(site, item);
        return answer.generation > before.generation ? answer : null;
      },
      { timeoutMs: (SHARED_MAX_AGE_SECONDS + 10) * 1000, intervalMs: 250 },
    );
    const seconds = (Date.now() - changedAt) / 1000;
    console.log(`multi: a listing change reached the item page's next visitor through nginx after ${seconds.toFixed(1)} s`);
    expect(seconds).toBeLessThan(SHARED_MAX_AGE_SECONDS + 3);
    expect(seen.body).not.toBe(before.body);

    // Signed in, none of these pages comes from the cache or lands in it.
    const { cookie, email } = await signedInCookie();
    for (const path of pages) {
      for (let i = 0; i < 2; i++) {
        const signedIn = await get(site, path, { Cookie: cookie });
        expect([signedIn.cache, signedIn.cacheControl, signedIn.etag], path).toEqual([
          "BYPASS",
          expect.stringMatching(/^(private, no-cache|no-store)$/),
          null,
        ]);
        expect(signedIn.body, path).toContain(email);
      }
      const visitor = await waitFor(`${path} for a visitor after`, async () => {
        const answer = await get(site, path);
        return answer.cache === "HIT" || answer.cache === "EXPIRED" || answer.cache === "MISS" ? answer : null;
      });
      expect(visitor.body, path).not.toContain(email);
    }
  });
});
