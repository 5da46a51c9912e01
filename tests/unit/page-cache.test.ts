import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { CachedPages, isPathOf, pageCacheKey } from "../../server/page-cache";
import {
  type CachedPage,
  hashedPolicy,
  inlineScriptHashes,
  etagOf,
  isShareable,
  matchesEtag,
  pageCoding,
  privateCacheControl,
  sharedCacheControl,
  toCachedPage,
} from "../../server/cached-page";
import { UNGENERATED_FRESH_MS, visitorPages } from "../../server/visitor-pages";

const MARKET = "/marketplace/market";
const page = (body: string): CachedPage => ({ headers: [], body, etag: '"1-x"', scriptHashes: [], bytes: Buffer.byteLength(body) });
const validator = { generation: 1, key: "k", version: "v1" };

describe("CachedPages", () => {
  it("keeps pages of the generation last read, and forgets them all when it moves", () => {
    const store = new CachedPages({ maxEntries: 10, maxBytes: 1000 });
    expect(store.get("a", 1)).toBeUndefined();
    store.set("a", 1, page("A"));
    expect(store.get("a", 1)?.body).toBe("A");
    expect(store.get("a", 2)).toBeUndefined();
    expect(store.size.entries).toBe(0);
    // A page rendered after reading generation 1 is not kept once generation 2 has been read.
    store.set("a", 1, page("A"));
    expect(store.get("a", 2)).toBeUndefined();
  });

  it("keeps each group (a path) at its own generation, under one bound for all", () => {
    const store = new CachedPages({ maxEntries: 3, maxBytes: 1000 });
    store.get("m", 1, "market");
    store.get("h", "b7", "home");
    store.set("m", 1, page("M"), "market");
    store.set("h", "b7", page("H"), "home");
    // The market moves: its pages go, the home page stays.
    expect(store.get("m", 2, "market")).toBeUndefined();
    expect(store.get("h", "b7", "home")?.body).toBe("H");
    expect(store.size.entries).toBe(1);
    // A key is found only in its own group.
    expect(store.get("h", 2, "market")).toBeUndefined();
    // One bound for all groups: the least recently used goes, whatever its group.
    store.set("m1", 2, page("1"), "market");
    store.set("m2", 2, page("2"), "market");
    store.set("m3", 2, page("3"), "market");
    expect(store.get("h", "b7", "home")).toBeUndefined();
    expect(store.size.entries).toBe(3);
  });

  it("is bounded in entries and bytes, least recently used first", () => {
    const store = new CachedPages({ maxEntries: 2, maxBytes: 10 });
    store.get("x", 1);
    store.set("a", 1, page("aaaa"));
    store.set("b", 1, page("bbbb"));
    store.get("a", 1);
    store.set("c", 1, page("cccc"));
    expect([store.get("a", 1)?.body, store.get("b", 1)?.body, store.get("c", 1)?.body]).toEqual(["aaaa", undefined, "cccc"]);
    store.set("d", 1, page("dddddddd"));
    expect(store.size).toMatchObject({ entries: 1, bytes: 8 });
    store.set("e", 1, page("e".repeat(11)));
    expect(store.get("e", 1)).toBeUndefined();
  });
});

describe("a page with a time window (PAGE_CACHE_UNTIL_HEADER)", () => {
  it("is served until its bound, then rendered afresh although the generation stands still", async () => {
    const store = new CachedPages({ maxEntries: 10, maxBytes: 1000 });
    store.get("x", 1);
    const response = (until: number) =>
      new Response("24 h volume", { headers: { "Content-Type": "text/html", "X-Page-Cache-Until": String(until) } });
    const later = await toCachedPage(response(Date.now() + 3_600_000), validator);
    expect(later.headers.map(([name]) => name)).toEqual(["content-type"]);
    store.set("later", 1, later);
    store.set("past", 1, await toCachedPage(response(Date.now() - 1), validator));
    expect(store.get("later", 1)?.body).toBe("24 h volume");
    expect(store.get("past", 1)).toBeUndefined();
    expect(store.size).toMatchObject({ entries: 1, bytes: later.bytes });
    // The body and its br and gzip forms count.
    expect(later.bytes).toBe(11 + later.encoded!.br!.length + later.encoded!.gzip!.length);
  });

  it("is rendered afresh after its path's freshForMs, or its own bound when that comes first", async () => {
    const html = (until?: number) =>
      new Response("x", { headers: { "Content-Type": "text/html", ...(until ? { "X-Page-Cache-Until": String(until) } : {}) } });
    const now = 1_000_000;
    expect((await toCachedPage(html(), validator, { freshForMs: 60_000, now })).until).toBe(now + 60_000);
    expect((await toCachedPage(html(now + 5_000), validator, { freshForMs: 60_000, now })).until).toBe(now + 5_000);
    expect((await toCachedPage(html(now + 90_000), validator, { freshForMs: 60_000, now })).until).toBe(now + 60_000);
    expect((await toCachedPage(html(), validator, { now })).until).toBeUndefined();
  });
});

describe("a stored page's codings", () => {
  const stored = { encoded: { br: Buffer.from("b"), gzip: Buffer.from("g") } };
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", "identity"],
    ["deflate", "identity"],
    ["*", "br"],
    ["identity;q=0, gzip;q=0.1", "gzip"],
    ["gzip;q=0.5, identity", "identity"],
  ])("Accept-Encoding %j gets %s", (accept, coding) => {
    expect(pageCoding(accept, stored)).toBe(coding);
  });

  it("gives each coding its own strong ETag", () => {
    const page = { etag: '"7.b12-abc"' };
    expect([etagOf(page, "identity"), etagOf(page, "gzip"), etagOf(page, "br")]).toEqual([
      '"7.b12-abc"',
      '"7.b12-abc-gzip"',
      '"7.b12-abc-br"',
    ]);
  });

  it("matches a path by its name or a pattern of the whole pathname", () => {
    expect(isPathOf("/home", "/home")).toBe(true);
    expect(isPathOf("/home", "/home/x")).toBe(false);
    expect(isPathOf(/\/lootbox\/\d{1,3}/, "/lootbox/12")).toBe(true);
    expect(isPathOf(/\/lootbox\/\d{1,3}/, "/lootbox/12/open")).toBe(false);
    expect(isPathOf(/\/lootbox\/\d{1,3}/, "/x/lootbox/12")).toBe(false);
  });
});

describe("pageCacheKey", () => {
  const paths = new Set([MARKET]);
  const key = (url: string, init?: RequestInit) => pageCacheKey(new Request(`https://sparkera.example${url}`, init), paths);

  it("is the full URL (and Save-Data) of a visitor's GET of a cached path", () => {
    expect(key(`${MARKET}?nftType=1`)).toBe(`https://sparkera.example${MARKET}?nftType=1\nsave-data=`);
    expect(key(MARKET, { headers: { "Save-Data": " On" } })).toBe(`https://sparkera.example${MARKET}\nsave-data=on`);
    expect(pageCacheKey(new Request(`https://other.example${MARKET}`), paths)).toContain("https://other.example/");
  });

  it("is null with any cookie or authorization, for other methods and other paths", () => {
    expect(key(MARKET, { headers: { Cookie: "__session=x" } })).toBeNull();
    expect(key(MARKET, { headers: { Cookie: "lite=on" } })).toBeNull();
    expect(key(MARKET, { headers: { Authorization: "Bearer x" } })).toBeNull();
    expect(key(MARKET, { method: "POST" })).toBeNull();
    expect(key(MARKET, { method: "HEAD" })).toBeNull();
    expect(key(`${MARKET}.data`)).toBeNull();
    expect(key("/marketplace/detail")).toBeNull();
  });
});

describe("isShareable", () => {
  const html = { "Content-Type": "text/html; charset=utf-8" };
  it.each([
    [200, html, true],
    [200, { ...html, Vary: "Accept-Encoding, Save-Data" }, true],
    [200, { ...html, "Cache-Control": "public, max-age=0" }, true],
    [200, { ...html, "Set-Cookie": "a=b" }, false],
    [200, { ...html, "Cache-Control": "private" }, false],
    [200, { ...html, "Cache-Control": "no-store" }, false],
    [200, { ...html, Vary: "User-Agent" }, false],
    [200, { "Content-Type": "application/json" }, false],
    [302, html, false],
    [500, html, false],
  ])("%s %j → %s", (status, headers, expected) => {
    expect(isShareable(new Response("x", { status, headers }))).toBe(expected);
  });
});

describe("a page any cache may copy", () => {
  const sha = (text: string) => `'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`;

  it("has the hash of each inline script's text (each once), and none of a script with a src", () => {
    const html =
      '<head><script>a()</script><script type="module">import "/build/x.js";\nb("é")</script></head>' +
      '<noscript><img src="x"></noscript><script src="/build/y.js"></script><SCRIPT async>a()</SCRIPT><script></script>';
    expect(inlineScriptHashes(html)).toEqual([sha("a()"), sha('import "/build/x.js";\nb("é")'), sha("")]);
  });

  it("has a policy with its hashes in place of the nonce, the rest as it was", () => {
    const policy = "default-src 'self';script-src 'strict-dynamic' 'self' 'nonce-abc123';script-src-attr 'none';connect-src 'self'";
    expect(hashedPolicy(policy, ["'sha256-A='", "'sha256-B='"])).toBe(
      "default-src 'self';script-src 'strict-dynamic' 'self' 'sha256-A=' 'sha256-B=';script-src-attr 'none';connect-src 'self'",
    );
    // No inline script at all (lite mode): nothing runs.
    expect(hashedPolicy("script-src 'strict-dynamic' 'self' 'nonce-x'", [])).toBe("script-src 'strict-dynamic' 'self'");
  });

  it("has a strong ETag of its generation, build, key and body", async () => {
    const html = () => new Response("<p>x</p>", { headers: { "Content-Type": "text/html", "Cache-Control": "private" } });
    const one = await toCachedPage(html(), validator);
    expect(one.etag).toMatch(/^"1-[\w-]{22}"$/);
    expect(one.headers).toEqual([["content-type", "text/html"]]);
    expect((await toCachedPage(html(), validator)).etag).toBe(one.etag);
    for (const other of [{ generation: 2 }, { version: "v2" }, { key: "k2" }]) {
      expect((await toCachedPage(html(), { ...validator, ...other })).etag).not.toBe(one.etag);
    }
    const otherBody = new Response("<p>y</p>", { headers: { "Content-Type": "text/html" } });
    expect((await toCachedPage(otherBody, validator)).etag).not.toBe(one.etag);
  });

  it("is public for s-maxage, less when its time window closes sooner", () => {
    const now = Date.now();
    expect(sharedCacheControl({}, now)).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=30");
    expect(sharedCacheControl({ until: now + 4_500 }, now)).toBe("public, max-age=0, s-maxage=4, stale-while-revalidate=30");
    expect(sharedCacheControl({ until: now - 1 }, now)).toContain("s-maxage=0,");
  });

  it("matches If-None-Match by its tag, a list, W/ or *", () => {
    expect(matchesEtag('"1-a"', '"1-a"')).toBe(true);
    expect(matchesEtag('"0-z", W/"1-a"', '"1-a"')).toBe(true);
    expect(matchesEtag("*", '"1-a"')).toBe(true);
    expect(matchesEtag('"1-b"', '"1-a"')).toBe(false);
    expect(matchesEtag(undefined, '"1-a"')).toBe(false);
  });
});

it.each([
  [{ "Content-Type": "text/html" }, "private, no-cache"],
  [{ "Content-Type": "text/html", "Cache-Control": "public, max-age=60" }, "private, no-cache"],
  [{ "Content-Type": "text/html", "Cache-Control": "no-store" }, "no-store"],
  [{ "Content-Type": "text/html", "Cache-Control": "private, max-age=5" }, "private, max-age=5"],
  [{ "Content-Type": "application/json", "Cache-Control": "public, max-age=300" }, "public, max-age=300"],
])("an HTML page for one request only is private: %j → %s", (init, expected) => {
  const headers = new Headers(init);
  privateCacheControl(headers);
  expect(headers.get("Cache-Control")).toBe(expected);
});

describe("visitorPages (decision 0033's table)", () => {
  let block = 5n;
  let market = 3;
  let indexed = 40;
  const pages = visitorPages({ market: async () => market, chain: async () => block, indexer: async () => String(indexed) });
  const pageOf = (pathname: string) => pages.find((page) => isPathOf(page.path, pathname));

  it("names the public read pages, and no page with a user, a form's one-time value or a sign-in", () => {
    for (const path of [
      "/marketplace",
      "/marketplace/market",
      "/marketplace/statistics",
      "/marketplace/detail",
      "/player/0x0000000000000000000000000000000000000001",
      "/home",
      "/lootbox/1",
      "/loyalty",
      "/loyalty/page/1",
      "/loyalty/rewards/1",
      "/spaceship/detail",
      "/spaceship/calculator",
    ]) {
      expect(pageOf(path), path).toBeDefined();
    }
    for (const path of [
      "/",
      "/login",
      "/forgot-password",
      "/game",
      "/invite",
      "/marketplace/storage",
      "/marketplace/offers",
      "/player/0x1",
      "/spaceship/storehouse",
      "/lootbox/1/open",
    ]) {
      expect(pageOf(path), path).toBeUndefined();
    }
  });

  it("moves each page's generation with what it shows", async () => {
    const generations = async () =>
      Promise.all(
        ["/marketplace/market", "/marketplace/detail", "/home", "/spaceship/calculator"].map((path) => pageOf(path)!.generation()),
      );
    expect(await generations()).toEqual([3, "3.b5.i40", "b5", 0]);
    market++;
    expect(await generations()).toEqual([4, "4.b5.i40", "b5", 0]);
    block++;
    expect(await generations()).toEqual([4, "4.b6.i40", "b6", 0]);
    // The indexer applies the block: the item page, which shows its holder, moves again.
    indexed++;
    expect(await generations()).toEqual([4, "4.b6.i41", "b6", 0]);
    // What has no generation (a display name, a window of time) bounds the page in time instead.
    expect(pageOf("/marketplace/detail")!.freshForMs).toBe(UNGENERATED_FRESH_MS);
    expect(pageOf("/marketplace/market")!.freshForMs).toBeUndefined();
  });
});
