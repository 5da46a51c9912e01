/**
 * What the list routes (market, statistics, storage, a player's page) share on the server: canonical URLs whose
 * redirect keeps the parse notices.
 */
import { createCookie, redirect } from "@remix-run/node";
import { isCanonical } from "~/features/market/filters/shared";
import { getEnv } from "~/services/env.server";

/** At most this many notices travel across the redirect (a cookie holds about 4 KB). */
const NOTICES_ACROSS_REDIRECT = 8;

let noticeCookie: ReturnType<typeof createCookie> | undefined;
function notices() {
  noticeCookie ??= createCookie("__market_notices", {
    httpOnly: true,
    sameSite: "lax",
    secure: getEnv().publicUrl.startsWith("https:"),
    secrets: getEnv().sessionSecrets,
    // Only the redirect's own target reads it, right away.
    maxAge: 60,
  });
  return noticeCookie;
}

/**
 * A view's URL must be its canonical one: otherwise this throws a redirect there, with the parse notices in a
 * short-lived signed cookie addressed to that URL. On the canonical URL it returns the notices to show (the
 * parse's own plus those carried over) and the header that clears the cookie.
 */
export async function canonicalView(
  request: Request,
  { path, canonical, parseNotices }: { path: string; canonical: string; parseNotices: string[] },
): Promise<{ notices: string[]; headers: Headers }> {
  const url = new URL(request.url);
  const target = canonical ? `${path}?${canonical}` : path;
  const headers = new Headers();
  if (!isCanonical(url.search, canonical)) {
    const kept = parseNotices.slice(0, NOTICES_ACROSS_REDIRECT);
    if (parseNotices.length > kept.length) kept.push(`…and ${parseNotices.length - kept.length} more.`);
    // Addressed to the view's own path: a player page lives outside /marketplace.
    if (kept.length) headers.append("Set-Cookie", await notices().serialize({ target, notices: kept }, { path }));
    throw redirect(target, { headers });
  }
  const carried: unknown = await notices().parse(request.headers.get("Cookie"));
  if (!carried) return { notices: parseNotices, headers };
  headers.append("Set-Cookie", await notices().serialize("", { maxAge: 0, path }));
  return { notices: [...noticesFor(carried, target), ...parseNotices], headers };
}

/** The notices a cookie carried, when it is addressed to this very URL and holds text only. */
function noticesFor(carried: unknown, target: string): string[] {
  if (typeof carried !== "object" || carried === null || !("target" in carried) || !("notices" in carried)) return [];
  const list = carried.notices;
  return carried.target === target && Array.isArray(list) && list.every((n): n is string => typeof n === "string") ? list : [];
}
