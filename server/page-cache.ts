/**
 * Market pages for visitors, cached (issue 17). A market page is a function of its URL and of what is on sale, so
 * the same page for the next visitor is a copy, as long as the market stands still. Every page is stored under its
 * full canonical URL and the market pages' generation, a number the market backend moves on every change a market
 * page shows (backend/market/migrations/market_011_page_generation.ts): any listing change, price, view or favorite
 * count makes the next request render afresh. What keeps the cache from serving anything personal:
 * - only GET requests with no Cookie and no Authorization header are served from it or stored in it, so no
 *   signed-in user (their session is a cookie), no carried notice and no lite-mode switch ever meets it;
 * - only a 200 HTML page without Set-Cookie, without Cache-Control private or no-store, and varying on no request
 *   header outside its key is stored;
 * - the only request header in the key besides the URL is Save-Data (lite mode);
 * - the page's CSP nonce is replaced by the response's own on every copy, so no two answers share one.
 * It is bounded in entries and bytes (least recently used go first), and a new generation forgets every page.
 * Concurrent misses of one page render it once. The rendering itself is Remix's, as for any other request.
 */
import type { AppLoadContext } from "@remix-run/node";
// The Express adapter's own request and response conversion (exported and typed, though not from its index).
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { PAGE_CACHE_UNTIL_HEADER } from "../app/services/page-headers.server";

/** A stored page: its headers (no Set-Cookie, no length) and body, rendered with `nonce`. */
export interface CachedPage {
  headers: [string, string][];
  body: string;
  nonce: string;
  bytes: number;
  /** Epoch ms after which the page is rendered afresh even if the market stands still (PAGE_CACHE_UNTIL_HEADER). */
  until?: number;
}

/** Request headers that select a variant of a page: they are part of the key (lite mode reads Save-Data). */
const KEYED_HEADERS = ["save-data"];
/** Response Vary names that need nothing in the key: a request with a cookie never meets the cache. */
const VARY_COVERED = new Set(["accept-encoding", "cookie", ...KEYED_HEADERS]);

/** The pages of one generation, least recently used first. */
export class CachedPages {
  private generation: number | undefined;
  private readonly pages = new Map<string, CachedPage>();
  private bytes = 0;

  constructor(private readonly limits: { maxEntries: number; maxBytes: number }) {}

  get size() {
    return { entries: this.pages.size, bytes: this.bytes, generation: this.generation };
  }

  /** The page of `key` at `generation` (the one just read): a generation other than the stored pages' forgets them all. */
  get(key: string, generation: number): CachedPage | undefined {
    if (generation !== this.generation) {
      this.pages.clear();
      this.bytes = 0;
      this.generation = generation;
      return undefined;
    }
    const page = this.pages.get(key);
    if (page?.until !== undefined && Date.now() >= page.until) {
      this.pages.delete(key);
      this.bytes -= page.bytes;
      return undefined;
    }
    if (page) {
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  /**
   * Keeps a page rendered after reading `generation`, unless a later read saw another one (the market moved on while
   * it rendered, so it may be older than the market already is) or it alone exceeds the byte bound.
   */
  set(key: string, generation: number, page: CachedPage): void {
    if (generation !== this.generation || page.bytes > this.limits.maxBytes) return;
    const old = this.pages.get(key);
    if (old) {
      this.pages.delete(key);
      this.bytes -= old.bytes;
    }
    this.pages.set(key, page);
    this.bytes += page.bytes;
    for (const [oldest, evicted] of this.pages) {
      if (this.pages.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.pages.delete(oldest);
      this.bytes -= evicted.bytes;
    }
  }
}

/** The key of a request the cache may answer, or null when it must be rendered for this request alone. */
export function pageCacheKey(request: Request, paths: ReadonlySet<string>): string | null {
  if (request.method !== "GET" || request.headers.has("cookie") || request.headers.has("authorization")) return null;
  const url = new URL(request.url);
  if (!paths.has(url.pathname)) return null;
  const variant = KEYED_HEADERS.map((name) => `${name}=${request.headers.get(name)?.trim().toLowerCase() ?? ""}`);
  return [url.href, ...variant].join("\n");
}

/** Whether a rendered response may be copied to other visitors: a plain 200 page, nothing personal, nothing varied. */
export function isShareable(response: Response): boolean {
  const headers = response.headers;
  if (response.status !== 200 || headers.has("set-cookie")) return false;
  if (!/^text\/html\b/i.test(headers.get("content-type") ?? "")) return false;
  if (/\b(private|no-store)\b/i.test(headers.get("cache-control") ?? "")) return false;
  const vary = (headers.get("vary") ?? "").split(",").map((name) => name.trim().toLowerCase());
  return vary.every((name) => name === "" || VARY_COVERED.has(name));
}

const DROPPED_HEADERS = new Set(["content-length", "date", "set-cookie", PAGE_CACHE_UNTIL_HEADER.toLowerCase()]);

export async function toCachedPage(response: Response, nonce: string): Promise<CachedPage> {
  const body = await response.text();
  const headers = [...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase()));
  const until = Number(response.headers.get(PAGE_CACHE_UNTIL_HEADER) ?? NaN);
  return { headers, body, nonce, bytes: Buffer.byteLength(body), ...(Number.isFinite(until) ? { until } : {}) };
}

/** A copy of `page` for a response whose CSP names `nonce`. */
export function pageBody(page: CachedPage, nonce: string): string {
  return nonce === page.nonce ? page.body : page.body.replaceAll(page.nonce, nonce);
}

export interface PageCacheOptions {
  /** Pathnames whose pages depend only on their URL and what is on sale (with no cookie: no user, no notice). */
  paths: readonly string[];
  /** The market pages' generation now; a failure renders the page uncached. */
  generation: () => Promise<number>;
  maxEntries?: number;
  maxBytes?: number;
  /** Say `X-Page-Cache: hit` or `miss` on cacheable pages (the bench checks what it measures). */
  report?: boolean;
}

/** The request with the body formBodiesOnly (server/form-body.ts) already read and checked, when it did. */
function withReadBody(request: Request, body: unknown): Request {
  return Buffer.isBuffer(body) ? new Request(request, { body, duplex: "half" } as RequestInit) : request;
}

/** A web request handler: Remix's (createRequestHandler of @remix-run/node), or a test's. */
export type WebHandler = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

/**
 * `handleRequest` for Express, as @remix-run/express serves it, with the page cache in front of the paths it names.
 * `nonce` is the CSP nonce of the response being made (the one passed to Remix in the load context).
 */
export function remixHandler({
  handleRequest,
  getLoadContext,
  nonce,
  cache,
}: {
  handleRequest: WebHandler;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  nonce: (res: ExpressResponse) => string;
  cache?: PageCacheOptions;
}): RequestHandler {
  const paths = new Set(cache?.paths ?? []);
  const store = new CachedPages({ maxEntries: cache?.maxEntries ?? 500, maxBytes: cache?.maxBytes ?? 32 * 1024 * 1024 });
  /** The render under way of each key and generation, for the requests that miss it meanwhile. */
  const inFlight = new Map<string, Promise<CachedPage | null>>();

  function sendPage(res: ExpressResponse, page: CachedPage, status: "hit" | "miss") {
    res.status(200);
    for (const [name, value] of page.headers) res.append(name, value);
    if (cache?.report) res.set("X-Page-Cache", status);
    const body = pageBody(page, nonce(res));
    res.set("Content-Length", String(Buffer.byteLength(body)));
    res.end(body);
  }

  async function cached(req: ExpressRequest, res: ExpressResponse, request: Request, key: string): Promise<boolean> {
    let generation: number;
    try {
      generation = await cache!.generation();
    } catch (error) {
      if (req.log) req.log.error({ err: error }, "[page-cache] no generation, rendering uncached");
      else console.error("[page-cache] no generation, rendering uncached:", error);
      return false;
    }
    const stored = store.get(key, generation);
    if (stored) {
      sendPage(res, stored, "hit");
      return true;
    }
    const flightKey = `${generation}\n${key}`;
    const flight = inFlight.get(flightKey);
    if (flight) {
      const page = await flight;
      if (page) {
        sendPage(res, page, "hit");
        return true;
      }
      // The render it waited for was not shareable (an error, say): this request gets its own.
      return false;
    }
    let settle!: (page: CachedPage | null) => void;
    inFlight.set(flightKey, new Promise((resolve) => (settle = resolve)));
    let page: CachedPage | null = null;
    try {
      const response = await handleRequest(request, getLoadContext(req, res));
      if (!isShareable(response)) {
        await sendRemixResponse(res, response);
        return true;
      }
      page = await toCachedPage(response, nonce(res));
      store.set(key, generation, page);
      sendPage(res, page, "miss");
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
      await sendRemixResponse(res, await handleRequest(request, getLoadContext(req, res)));
    } catch (error) {
      next(error);
    }
  };
}
