import crypto from "node:crypto";
import http, { type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { remixHandler } from "../../server/page-cache";

const MARKET = "/marketplace/market";

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
