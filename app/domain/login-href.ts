/**
 * The login URL that brings the user back to `currentPath` afterwards. It only encodes: the login page lets
 * `redirect` through safeRedirect, the one gate, so pages need not carry that check in their JavaScript.
 */
export function loginHref(currentPath: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(extra);
  params.set("redirect", currentPath);
  return `/login?${params.toString()}`;
}
