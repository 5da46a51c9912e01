/**
 * A visitor's page as the page cache keeps it and any cache may copy it (decision 0033): its shape, its codings and
 * their strong ETags, the hashes that allow its inline scripts in place of a nonce, and the Cache-Control of shared
 * and private answers. The store and the request handling are page-cache.ts's.
 */
import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { PAGE_CACHE_UNTIL_HEADER } from "../app/services/page-headers.server";

/** The content codings a stored page is kept in besides identity, best first (compression's own preference). */
export const PAGE_CODINGS = ["br", "gzip"] as const;
export type PageCoding = (typeof PAGE_CODINGS)[number] | "identity";

/** A stored page: its headers (no Set-Cookie, no length) and body, rendered without a nonce. */
export interface CachedPage {
  headers: [string, string][];
  body: string;
  /** The body in each coding of PAGE_CODINGS (absent: only identity is sent). */
  encoded?: Partial<Record<Exclude<PageCoding, "identity">, Buffer>>;
  /**
   * Its strong validator for identity: the generation it was rendered at and a digest of the build, key and body; a
   * coding's is this one with `-<coding>` before the closing quote (etagOf).
   */
  etag: string;
  /** The CSP sources allowing its inline scripts, `'sha256-…'` each. */
  scriptHashes: string[];
  bytes: number;
  /** Epoch ms after which the page is rendered afresh even if the market stands still (PAGE_CACHE_UNTIL_HEADER). */
  until?: number;
}

/** Request headers that select a variant of a page: they are part of the key (lite mode reads Save-Data). */
export const KEYED_HEADERS = ["save-data"];
/** Response Vary names that need nothing in the key: a request with a cookie never meets the cache. */
const VARY_COVERED = new Set(["accept-encoding", "cookie", ...KEYED_HEADERS]);

/** A path's generation: a number (the market's), a string (several joined), never compared but for equality. */
export type Generation = number | string;

/** Whether a rendered response may be copied to other visitors: a plain 200 page, nothing personal, nothing varied. */
export function isShareable(response: Response): boolean {
  const headers = response.headers;
  if (response.status !== 200 || headers.has("set-cookie")) return false;
  if (!/^text\/html\b/i.test(headers.get("content-type") ?? "")) return false;
  if (/\b(private|no-store)\b/i.test(headers.get("cache-control") ?? "")) return false;
  const vary = (headers.get("vary") ?? "").split(",").map((name) => name.trim().toLowerCase());
  return vary.every((name) => name === "" || VARY_COVERED.has(name));
}

const DROPPED_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "date",
  "set-cookie",
  "cache-control",
  "etag",
  PAGE_CACHE_UNTIL_HEADER.toLowerCase(),
]);

/** Every `<script>` with no src, with its text as the browser hashes it (a script's text is raw: no entity decoding). */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** The CSP hash sources of the inline scripts of `html`, each once, in document order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!)) continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(text!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** The page's CSP: the response's own (server.ts's, with this response's nonce), with the page's hashes for the nonce. */
export function hashedPolicy(policy: string, scriptHashes: readonly string[]): string {
  return policy
    .replace(/\s*'nonce-[^']*'/g, "")
    .replace(/(^|;)(\s*script-src\b[^;]*)/, (_all, start: string, directive: string) =>
      [start + directive.trimEnd(), ...scriptHashes].join(" "),
    );
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/** Brotli at compression's own quality (4): the page is compressed once per generation, but on a busy 2-core box. */
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

export async function toCachedPage(
  response: Response,
  validator: { generation: Generation; key: string; version: string },
  options: { freshForMs?: number; now?: number; encode?: boolean } = {},
): Promise<CachedPage> {
  const body = await response.text();
  const headers = [...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase()));
  const routeUntil = Number(response.headers.get(PAGE_CACHE_UNTIL_HEADER) ?? NaN);
  const fresh = options.freshForMs === undefined ? NaN : (options.now ?? Date.now()) + options.freshForMs;
  const until = Math.min(...[routeUntil, fresh].filter(Number.isFinite));
  const digest = crypto.createHash("sha256").update(`${validator.version}\n${validator.key}\n${body}`).digest("base64url");
  const encoded =
    options.encode === false
      ? undefined
      : await Promise.all([brotli(body, BROTLI_OPTIONS), gzip(body)]).then(([br, gz]) => ({ br, gzip: gz }));
  return {
    headers,
    body,
    ...(encoded ? { encoded } : {}),
    etag: `"${validator.generation}-${digest.slice(0, 22)}"`,
    scriptHashes: inlineScriptHashes(body),
    bytes: Buffer.byteLength(body) + (encoded ? encoded.br.length + encoded.gzip.length : 0),
    ...(Number.isFinite(until) ? { until } : {}),
  };
}

/** The strong ETag of a page in one coding: each representation has its own (RFC 9110 8.8.3). */
export function etagOf(page: Pick<CachedPage, "etag">, coding: PageCoding): string {
  return coding === "identity" ? page.etag : `${page.etag.slice(0, -1)}-${coding}"`;
}

/**
 * The coding to send a stored page in, for a request's Accept-Encoding: the highest q among those the page is kept
 * in, br before gzip on a tie (as compression prefers); identity when there is no header or none is acceptable.
 */
export function pageCoding(acceptEncoding: string | undefined, page: Pick<CachedPage, "encoded">): PageCoding {
  if (!acceptEncoding || !page.encoded) return "identity";
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const weight = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    q.set(name, weight === undefined ? 1 : Number(weight) || 0);
  }
  const qOf = (coding: string) => q.get(coding) ?? q.get("*") ?? 0;
  let best: PageCoding = "identity";
  let bestQ = 0;
  for (const coding of PAGE_CODINGS) {
    if (page.encoded[coding] && qOf(coding) > bestQ) {
      best = coding;
      bestQ = qOf(coding);
    }
  }
  // identity is acceptable unless refused by name (or by *;q=0 without naming it); a coding at a higher q wins.
  const identityQ = q.get("identity") ?? (q.get("*") === 0 ? 0 : 1);
  return bestQ > 0 && bestQ >= identityQ ? best : "identity";
}

/** How long a shared cache (nginx, a CDN) may serve a visitor's page without asking, and then serve it stale while it asks. */
export const SHARED_MAX_AGE_SECONDS = 10;
export const STALE_WHILE_REVALIDATE_SECONDS = 30;

/**
 * A stored page's Cache-Control: any cache may keep it; a browser asks again each time (a 304 when nothing moved), a
 * shared cache after SHARED_MAX_AGE_SECONDS, or sooner when the page's time window closes sooner.
 */
export function sharedCacheControl(page: Pick<CachedPage, "until">, now = Date.now()): string {
  const left = page.until === undefined ? Infinity : Math.max(0, Math.floor((page.until - now) / 1000));
  const sMaxAge = Math.min(SHARED_MAX_AGE_SECONDS, left);
  return `public, max-age=0, s-maxage=${sMaxAge}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`;
}

/** Whether a request's If-None-Match names `etag` (RFC 9110: a weak comparison, so W/ is ignored). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}

/** The Cache-Control of an HTML answer no cache may share: `private` unless it says private or no-store already. */
export function privateCacheControl(headers: Headers): void {
  if (!/^text\/html\b/i.test(headers.get("content-type") ?? "")) return;
  if (/\b(private|no-store)\b/i.test(headers.get("cache-control") ?? "")) return;
  headers.set("Cache-Control", "private, no-cache");
}
