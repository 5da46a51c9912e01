import { MAX_REDIRECT_LENGTH } from "./safe-redirect";

/**
 * The login URL that brings the user back to `currentPath` afterwards. It only encodes: the login page lets
 * `redirect` through safeRedirect, the one gate, so pages need not carry that check in their JavaScript. A path
 * longer than that gate takes comes back without its query: whole, it would be refused there anyway, and its
 * escaped copy could push the Location header past what clients read (16 KB in Node).
 */
export function loginHref(currentPath: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(extra);
  params.set("redirect", currentPath.length > MAX_REDIRECT_LENGTH ? currentPath.split("?", 1)[0] : currentPath);
  return `/login?${params.toString()}`;
}
