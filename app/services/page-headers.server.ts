import type { HeadersFunction } from "@remix-run/node";

/**
 * A route's `headers`: passes its loader's Cache-Control on to the document. Without a `headers` export Remix
 * keeps only a loader's cookies, so a `data(…, { headers })` alone never reaches the browser.
 */
export const loaderCacheControl: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const cacheControl = loaderHeaders.get("Cache-Control");
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  return headers;
};
