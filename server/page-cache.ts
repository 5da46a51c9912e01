/**
 * Visitor pages, cached (issue 17, issue 44). A visitor's page of a cached path is a function of its URL and of the
 * public data it shows, so the same page for the next visitor is a copy as long as that data stands still. Every page
 * is stored under its full canonical URL and its path's generation: a value that moves on every change to what the
 * page shows. The market pages' generation (backend/market/migrations/market_011_page_generation.ts) moves on any
 * listing change, price, view or favorite count; the chain's is its latest block; a page of the build alone has a
 * constant one. A path whose page shows something with no generation (a display name, a clock) is also rendered afresh
 * after `freshForMs` (decision 0033 has the table). What keeps the cache from serving anything personal:
 * - only GET requests with no Cookie and no Authorization header are served from it or stored in it, so no
 *   signed-in user (their session is a cookie), no carried notice and no lite-mode switch ever meets it;
 * - only a 200 HTML page without Set-Cookie, without Cache-Control private or no-store, and varying on no request
 *   header outside its key is stored;
 * - the only request header in the key besides the URL is Save-Data (lite mode);
 * - such a page is rendered without a CSP nonce: its inline scripts are allowed by their SHA-256 hashes, computed
 *   from the rendered HTML and sent in its own CSP (decision 0033), so every copy is as safe as the original, here or
 *   in a shared cache (nginx, a CDN), which it may fill: `public, s-maxage`, a strong ETag, a 304 on If-None-Match.
 * A stored page is also kept compressed (br, gzip), so a copy costs no compression, and each coding has its own
 * strong ETag (RFC 9110 8.8.3: a validator names one representation), with `Vary: Accept-Encoding`.
 * Every other HTML answer (signed in, a cookie set, a lite or no-JS visitor, another path) is `private`.
 * It is bounded in entries and bytes for all paths together (least recently used go first), and a new generation
 * forgets every page of its path.
 * Concurrent misses of one page render it once. The rendering itself is Remix's, as for any other request.
 */
import type { AppLoadContext } from "@remix-run/node";
// The Express adapter's own request and response conversion (exported and typed, though not from its index).
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import {
  type CachedPage,
  KEYED_HEADERS,
  type Generation,
  isShareable,
  inlineScriptHashes,
  hashedPolicy,
  toCachedPage,
  etagOf,
  pageCoding,
  sharedCacheControl,
  matchesEtag,
  privateCacheControl,
} from "./cached-page";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";

/**
 * Pages in groups (a cached path each), each group at the generation last read for it, least recently used first
 * across all groups: one bound in entries and bytes for every path's pages.
 */
export class CachedPages {
  private readonly generations = new Map<string, Generation>();
  private readonly pages = new Map<string, { page: CachedPage; group: string }>();
  private bytes = 0;

  constructor(private readonly limits: { maxEntries: number; maxBytes: number }) {}

  /** Entries and bytes in all, and the generation of the default group. */
  get size() {
    return { entries: this.pages.size, bytes: this.bytes, generation: this.generations.get("") };
  }

  private drop(key: string) {
    const entry = this.pages.get(key);
    if (!entry) return;
    this.pages.delete(key);
    this.bytes -= entry.page.bytes;
  }

  /**
   * The page of `key` in `group` at `generation` (the one just read for the group): a generation other than the
   * group's pages' forgets them all.
   */
  get(key: string, generation: Generation, group = ""): CachedPage | undefined {
    if (generation !== this.generations.get(group)) {
      for (const [stored, entry] of this.pages) if (entry.group === group) this.drop(stored);
      this.generations.set(group, generation);
      return undefined;
    }
    const entry = this.pages.get(key);
    if (!entry || entry.group !== group) return undefined;
    if (entry.page.until !== undefined && Date.now() >= entry.page.until) {
      this.drop(key);
      return undefined;
    }
    this.pages.delete(key);
    this.pages.set(key, entry);
    return entry.page;
  }

  /**
   * Keeps a page rendered after reading `generation` for `group`, unless a later read saw another one (what it shows
   * moved on while it rendered, so it may be older than that already is) or it alone exceeds the byte bound.
   */
  set(key: string, generation: Generation, page: CachedPage, group = ""): void {
    if (generation !== this.generations.get(group) || page.bytes > this.limits.maxBytes) return;
    this.drop(key);
    this.pages.set(key, { page, group });
    this.bytes += page.bytes;
    for (const [oldest] of this.pages) {
      if (this.pages.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.drop(oldest);
    }
  }
}

/** The key of a request the cache may answer, or null when it must be rendered for this request alone. */
export function pageCacheKey(request: Request, paths: { has(pathname: string): boolean }): string | null {
  if (request.method !== "GET" || request.headers.has("cookie") || request.headers.has("authorization")) return null;
  const url = new URL(request.url);
  if (!paths.has(url.pathname)) return null;
  const variant = KEYED_HEADERS.map((name) => `${name}=${request.headers.get(name)?.trim().toLowerCase() ?? ""}`);
  return [url.href, ...variant].join("\n");
}

/** A page a visitor's copy of may be shared: its path, and what says when it changed. */
export interface CachedPath {
  /** The pathname, or a pattern matching the whole pathname of every page of it. */
  path: string | RegExp;
  /**
   * Everything the page shows besides its URL, as one value that moves whenever any of it changes (the market's page
   * generation, the chain's latest block, both, or a constant for a page of the build alone); a failure renders the
   * page uncached.
   */
  generation: () => Promise<Generation>;
  /** At most this long between renders even when the generation stands still: what it shows with no generation. */
  freshForMs?: number;
  /**
   * What a render of the page does besides rendering, for a request the cache answers instead (an item page's view,
   * counted by its loader): not awaited, a failure logged.
   */
  onServe?: (req: ExpressRequest) => Promise<unknown>;
}

/** Whether `pathname` is one of `path`'s. */
export function isPathOf(path: string | RegExp, pathname: string): boolean {
  return typeof path === "string" ? path === pathname : (path.exec(pathname)?.[0] ?? null) === pathname;
}

export interface PageCacheOptions {
  /** The paths whose visitor pages depend only on their URL and public data (with no cookie: no user, no notice). */
  pages: readonly CachedPath[];
  /** Bounds of all the paths' pages together (1,000 pages, 64 MB by default, compressed copies included). */
  maxEntries?: number;
  maxBytes?: number;
  /** Say `X-Page-Cache: hit` or `miss` on cacheable pages (the bench checks what it measures). */
  report?: boolean;
  /** The build's version (Remix's assets.version): part of every page's ETag, so a deploy changes them all. */
  version: string;
}

/** The request with the body formBodiesOnly (server/form-body.ts) already read and checked, when it did. */
function withReadBody(request: Request, body: unknown): Request {
  return Buffer.isBuffer(body) ? new Request(request, { body, duplex: "half" } as RequestInit) : request;
}

/** A web request handler: Remix's (createRequestHandler of @remix-run/node), or a test's. */
export type WebHandler = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

/**
 * `handleRequest` for Express, as @remix-run/express serves it, with the page cache in front of the paths it names.
 * A page of the cache is rendered with no nonce (an empty `cspNonce` in the load context) and answered with its
 * hashes in place of the response's nonce in the CSP that server.ts set.
 */
export function remixHandler({
  handleRequest,
  getLoadContext,
  cache,
}: {
  handleRequest: WebHandler;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  cache?: PageCacheOptions;
}): RequestHandler {
  const pages = cache?.pages ?? [];
  /** Every path's pages, one bound for all; a path's generation forgets its own pages only (a group each). */
  const store = new CachedPages({ maxEntries: cache?.maxEntries ?? 1000, maxBytes: cache?.maxBytes ?? 64 * 1024 * 1024 });
  const pathOf = (pathname: string) => pages.find((page) => isPathOf(page.path, pathname));
  const paths = { has: (pathname: string) => pathOf(pathname) !== undefined };
  /** The render under way of each key and generation, for the requests that miss it meanwhile. */
  const inFlight = new Map<string, Promise<CachedPage | null>>();

  function sendPage(req: ExpressRequest, res: ExpressResponse, page: CachedPage, status: "hit" | "miss", path: CachedPath) {
    if (status === "hit" && path.onServe) {
      path.onServe(req).catch((error: unknown) => {
        if (req.log) req.log.error({ err: error }, "[page-cache] a cached page's side effect failed");
        else console.error("[page-cache] a cached page's side effect failed:", error);
      });
    }
    for (const [name, value] of page.headers) res.append(name, value);
    if (cache?.report) res.set("X-Page-Cache", status);
    res.set("Cache-Control", sharedCacheControl(page));
    // Sent compressed as stored: server.ts's compression leaves it be (res.locals.pageEncoded), and each coding is its
    // own representation with its own strong ETag.
    const coding = pageCoding(req.headers["accept-encoding"], page);
    res.locals.pageEncoded = true;
    if (page.encoded) res.vary("Accept-Encoding");
    const etag = etagOf(page, coding);
    res.set("ETag", etag);
    const policy = res.getHeader("Content-Security-Policy");
    if (typeof policy === "string") res.set("Content-Security-Policy", hashedPolicy(policy, page.scriptHashes));
    if (matchesEtag(req.headers["if-none-match"], etag)) {
      res.removeHeader("Content-Type");
      res.status(304).end();
      return;
    }
    res.status(200);
    const body = coding === "identity" ? Buffer.from(page.body) : page.encoded![coding]!;
    if (coding !== "identity") res.set("Content-Encoding", coding);
    res.set("Content-Length", String(body.length));
    res.end(body);
  }

  /** Statuses whose Response may have no body. */
  const NULL_BODY = new Set([101, 204, 205, 304]);

  /** Remix's answer for this request alone: never shared. */
  async function sendOwn(res: ExpressResponse, response: Response) {
    privateCacheControl(response.headers);
    await sendRemixResponse(res, response);
  }

  async function cached(req: ExpressRequest, res: ExpressResponse, request: Request, key: string): Promise<boolean> {
    const path = pathOf(new URL(request.url).pathname)!;
    const group = String(pages.indexOf(path));
    let generation: Generation;
    try {
      generation = await path.generation();
    } catch (error) {
      if (req.log) req.log.error({ err: error }, "[page-cache] no generation, rendering uncached");
      else console.error("[page-cache] no generation, rendering uncached:", error);
      return false;
    }
    const stored = store.get(key, generation, group);
    if (stored) {
      sendPage(req, res, stored, "hit", path);
      return true;
    }
    const flightKey = `${generation}\n${key}`;
    const flight = inFlight.get(flightKey);
    if (flight) {
      const page = await flight;
      if (page) {
        sendPage(req, res, page, "hit", path);
        return true;
      }
      // The render it waited for was not shareable (an error, say): this request gets its own.
      return false;
    }
    let settle!: (page: CachedPage | null) => void;
    inFlight.set(flightKey, new Promise((resolve) => (settle = resolve)));
    let page: CachedPage | null = null;
    try {
      // No nonce: a page that may be copied is allowed its scripts by their hashes alone.
      const response = await handleRequest(request, { ...getLoadContext(req, res), cspNonce: "" });
      if (!isShareable(response)) {
        // Still rendered without a nonce: its scripts are allowed by their hashes here too.
        const body = await response.text();
        const policy = res.getHeader("Content-Security-Policy");
        if (typeof policy === "string") res.set("Content-Security-Policy", hashedPolicy(policy, inlineScriptHashes(body)));
        await sendOwn(
          res,
          new Response(NULL_BODY.has(response.status) ? null : body, {
            status: response.status,
            statusText: response.statusText,
            headers: response.headers,
          }),
        );
        return true;
      }
      page = await toCachedPage(response, { generation, key, version: cache!.version }, { freshForMs: path.freshForMs });
      store.set(key, generation, page, group);
      sendPage(req, res, page, "miss", path);
      return true;
    } finally {
      inFlight.delete(flightKey);
      settle(page);
    }
  }

  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    // createRemixRequest streams any body but a GET's or HEAD's to Remix, which reads one only in an action: a large
    // OPTIONS body, say, stayed paused half read, so Node read nothing more off the kept-alive connection and reset it
    // after its keep-alive timeout (5 + 1 s), the client's next request on it unanswered. What the answer left unread
    // is dropped instead, as Node does with a body nobody reads.
    res.once("finish", () => {
      if (req.complete) return;
      req.removeAllListeners("data");
      req.resume();
    });
    try {
      const request = withReadBody(createRemixRequest(req, res), req.body);
      const key = cache ? pageCacheKey(request, paths) : null;
      if (key !== null && (await cached(req, res, request, key))) return;
      await sendOwn(res, await handleRequest(request, getLoadContext(req, res)));
    } catch (error) {
      next(error);
    }
  };
}
