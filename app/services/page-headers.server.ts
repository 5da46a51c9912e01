import type { HeadersFunction } from "@remix-run/node";

/**
 * Until when (epoch ms) a visitor's page may be served from the page cache (server/page-cache.ts) although the market
 * stands still: a page showing a time window (a market view's 24 h volume) changes when a sale leaves it.
 */
export const PAGE_CACHE_UNTIL_HEADER = "X-Page-Cache-Until";

/**
 * A route's `headers`: passes its loader's Cache-Control (and page-cache bound) on to the document. Without a `headers` export Remix
 * keeps only a loader's cookies, so a `data(…, { headers })` alone never reaches the browser.
 */
export const loaderCacheControl: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const cacheControl = loaderHeaders.get("Cache-Control");
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  const until = loaderHeaders.get(PAGE_CACHE_UNTIL_HEADER);
  if (until) headers.set(PAGE_CACHE_UNTIL_HEADER, until);
  return headers;
};
