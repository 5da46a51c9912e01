const DEFAULT_REDIRECT = "/home";

/**
 * Returns `to` only when it is a path on this site; anything else (absolute URLs, protocol-relative `//host`,
 * backslash tricks, control characters) falls back to the default. Stops open redirects.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = DEFAULT_REDIRECT): string {
  if (typeof to !== "string" || !to) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  try {
    // A same-origin path resolves against a dummy origin without changing it.
    const url = new URL(to, "http://spark.invalid");
    if (url.origin !== "http://spark.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** The login URL that brings the user back to `currentPath` afterwards. */
export function loginHref(currentPath: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(extra);
  params.set("redirect", safeRedirect(currentPath));
  return `/login?${params.toString()}`;
}
