import crypto from "node:crypto";
import http, { type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CachedPages, isPathOf, pageCacheKey, remixHandler } from "../../server/page-cache";
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

describe("remixHandler with a page cache", () => {
  let baseUrl: string;
  let server: Server;
  let generation = 1;
  let price = "1 FIRE";
  let renders = 0;
  let setCookie = false;
  let failNext = false;
  let served = 0;

  beforeAll(async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.cspNonce = crypto.randomBytes(16).toString("hex");
      // As server.ts's helmet says it.
      res.set(
        "Content-Security-Policy",
        `default-src 'self';script-src 'strict-dynamic' 'self' 'nonce-${res.locals.cspNonce}';form-action 'self'`,
      );
      next();
    });
    app.all(
      "*",
      remixHandler({
        // Stands in for Remix: a page that greets the user its cookie names, with a nonce (when it has one) in a script.
        handleRequest: async (request, { cspNonce }) => {
          renders++;
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (failNext) {
            failNext = false;
            return new Response("down", { status: 503, headers: { "Content-Type": "text/html" } });
          }
          const user = /user=(\w+)/.exec(request.headers.get("Cookie") ?? "")?.[1] ?? "visitor";
          const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
          if (setCookie) headers.set("Set-Cookie", "flash=; Max-Age=0");
          headers.set("Vary", "Cookie, Save-Data");
          const nonce = cspNonce ? ` nonce="${cspNonce}"` : "";
          return new Response(`<p>${user}: ${price}</p><script${nonce}>hydrate("${user}")</script>`, { headers });
        },
        getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
        cache: {
          pages: [{ path: MARKET, generation: async () => generation, onServe: async () => void served++ }],
          report: true,
          version: "build-1",
        },
      }),
    );
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    generation++;
    setCookie = false;
  });

  async function get(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(baseUrl + path, { headers });
    const body = await response.text();
    const nonce = /nonce="(\w+)"/.exec(body)?.[1];
    const header = (name: string) => response.headers.get(name);
    return {
      status: response.status,
      cache: header("x-page-cache"),
      body,
      nonce,
      csp: header("content-security-policy"),
      cacheControl: header("cache-control"),
      etag: header("etag"),
      vary: header("vary"),
    };
  }
  const scriptHash = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;

  it("renders a visitor's page once, with no nonce, then serves the same copy: public, its ETag, its scripts' hashes", async () => {
    const before = renders;
    const first = await get(`${MARKET}?nftType=1`);
    const second = await get(`${MARKET}?nftType=1`);
    expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
    expect(renders - before).toBe(1);
    expect(second.body).toBe(first.body);
    expect(first.nonce).toBeUndefined();
    for (const answer of [first, second]) {
      expect(answer.cacheControl).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=30");
      // Node's fetch asks for gzip: the gzip form's own tag.
      expect(answer.etag).toMatch(new RegExp(`^"${generation}-[\\w-]{22}-gzip"$`));
      expect(answer.csp).toBe(
        `default-src 'self';script-src 'strict-dynamic' 'self' ${scriptHash('hydrate("visitor")')};form-action 'self'`,
      );
      expect(answer.vary).toBe("Cookie, Save-Data, Accept-Encoding");
    }
    expect(second.etag).toBe(first.etag);
  });

  it("answers If-None-Match with its ETag by a 304 and no body, until the market moves", async () => {
    const { etag } = await get(MARKET);
    const response = await fetch(baseUrl + MARKET, { headers: { "If-None-Match": etag! } });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe("");
    expect(response.headers.get("etag")).toBe(etag);
    expect(response.headers.get("cache-control")).toContain("public");
    generation++;
    const moved = await fetch(baseUrl + MARKET, { headers: { "If-None-Match": etag! } });
    expect(moved.status).toBe(200);
    expect(moved.headers.get("etag")).not.toBe(etag);
  });

  /** A raw answer, its body as sent (node:http decodes nothing). */
  function raw(path: string, headers: Record<string, string>) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(baseUrl + path, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
        })
        .on("error", reject);
    });
  }

  it("sends each coding as stored, with its own strong ETag, and a 304 only for that coding's tag", async () => {
    const path = `${MARKET}?codings=1`;
    const identity = await raw(path, {});
    const gzip = await raw(path, { "Accept-Encoding": "gzip" });
    const br = await raw(path, { "Accept-Encoding": "gzip, deflate, br" });
    expect([identity.headers["content-encoding"], gzip.headers["content-encoding"], br.headers["content-encoding"]]).toEqual([
      undefined,
      "gzip",
      "br",
    ]);
    const text = identity.body.toString();
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(text);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(text);
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length);
    const etags = [identity, gzip, br].map((answer) => answer.headers.etag!);
    expect(new Set(etags).size).toBe(3);
    expect(etags[1]).toBe(etags[0]!.replace(/"$/, '-gzip"'));
    for (const answer of [identity, gzip, br]) expect(answer.headers.vary).toContain("Accept-Encoding");
    // A cache holding the gzip form revalidates it: 304. The identity tag from a gzip request is another representation.
    expect((await raw(path, { "Accept-Encoding": "gzip", "If-None-Match": etags[1]! })).status).toBe(304);
    expect((await raw(path, { "Accept-Encoding": "gzip", "If-None-Match": etags[0]! })).status).toBe(200);
    expect((await raw(path, { "If-None-Match": etags[1]! })).status).toBe(200);
  });

  it("does what a render does besides rendering (onServe) for each answer from the cache only", async () => {
    const before = served;
    const miss = await get(`${MARKET}?served=1`);
    expect([miss.cache, served - before]).toEqual(["miss", 0]);
    expect((await get(`${MARKET}?served=1`)).cache).toBe("hit");
    expect(served - before).toBe(1);
    expect((await fetch(`${baseUrl}${MARKET}?served=1`, { headers: { "If-None-Match": miss.etag! } })).status).toBe(304);
    expect(served - before).toBe(2);
    await get(`${MARKET}?served=1`, { Cookie: "user=alice" });
    expect(served - before).toBe(2);
  });

  it("gives a signed-in user a private page with its own nonce, never a validator", async () => {
    const signedIn = await get(MARKET, { Cookie: "__session=abc; user=alice" });
    expect(signedIn.cacheControl).toBe("private, no-cache");
    expect(signedIn.etag).toBeNull();
    expect(signedIn.nonce).toMatch(/^\w{32}$/);
    expect(signedIn.csp).toContain(`'nonce-${signedIn.nonce}'`);
    expect(signedIn.csp).not.toContain("sha256");
  });

  it("renders afresh once the generation moves (a listing changed)", async () => {
    expect((await get(MARKET)).body).toContain("visitor: 1 FIRE");
    expect((await get(MARKET)).cache).toBe("hit");
    price = "2 FIRE";
    generation++;
    const fresh = await get(MARKET);
    expect(fresh.cache).toBe("miss");
    expect(fresh.body).toContain("visitor: 2 FIRE");
  });

  it("never serves a signed-in user from it, nor keeps their page", async () => {
    await get(MARKET);
    const before = renders;
    const signedIn = await get(MARKET, { Cookie: "__session=abc; user=alice" });
    expect(signedIn.cache).toBeNull();
    expect(signedIn.body).toContain("alice:");
    expect(renders - before).toBe(1);
    const visitor = await get(MARKET);
    expect(visitor.cache).toBe("hit");
    expect(visitor.body).not.toContain("alice");
  });

  it("keeps no page that sets a cookie, and no failure", async () => {
    setCookie = true;
    const flash = await get(MARKET);
    expect(flash.cache).toBeNull();
    // Rendered as a visitor's (no nonce), so allowed its scripts by hashes, but private: it sets a cookie.
    expect([flash.cacheControl, flash.etag, flash.nonce]).toEqual(["private, no-cache", null, undefined]);
    expect(flash.csp).toContain(scriptHash('hydrate("visitor")'));
    expect((await get(MARKET)).cache).toBeNull();
    setCookie = false;
    failNext = true;
    expect((await get(MARKET)).status).toBe(503);
    expect((await get(MARKET)).cache).toBe("miss");
  });

  it("renders a page once for the visitors who ask for it at the same time", async () => {
    const before = renders;
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(`${MARKET}?together=1`)));
    expect(renders - before).toBe(1);
    expect(answers.map((a) => a.cache).sort()).toEqual(["hit", "hit", "hit", "hit", "miss"]);
    expect(new Set(answers.map((a) => a.body + a.etag)).size).toBe(1);
  });

  it("leaves other paths alone", async () => {
    const before = renders;
    const detail = await get("/marketplace/detail");
    expect([detail.cache, detail.cacheControl, detail.etag]).toEqual([null, "private, no-cache", null]);
    expect(detail.csp).toContain(`'nonce-${detail.nonce}'`);
    expect((await get("/marketplace/detail")).cache).toBeNull();
    expect(renders - before).toBe(2);
  });
});

describe("remixHandler and a body Remix leaves unread", () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.all(
      "*",
      remixHandler({
        // Stands in for Remix, which reads a body only in an action: an OPTIONS request gets a 405, its body unread.
        handleRequest: async (request) => new Response(null, { status: request.method === "OPTIONS" ? 405 : 200 }),
        getLoadContext: () => ({ cspNonce: "" }),
      }),
    );
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("still answers the next request on the same connection", async () => {
    // A 1 MB OPTIONS body, then a GET on the same connection: the body is far past what Remix's body stream takes in
    // before it pauses.
    const body = "x".repeat(1024 * 1024);
    const socket = net.connect(port, "127.0.0.1");
    socket.write(`OPTIONS / HTTP/1.1\r\nHost: a\r\nContent-Length: ${body.length}\r\n\r\n${body}GET / HTTP/1.1\r\nHost: a\r\n\r\n`);
    const statuses = await new Promise<string[]>((resolve, reject) => {
      let text = "";
      const timer = setTimeout(() => reject(new Error(`no second answer in 3 s: ${text}`)), 3000);
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString("latin1");
        const found = [...text.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((match) => match[1]);
        if (found.length < 2) return;
        clearTimeout(timer);
        resolve(found);
      });
      socket.on("error", reject);
    }).finally(() => socket.destroy());
    expect(statuses).toEqual(["405", "200"]);
  });
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
