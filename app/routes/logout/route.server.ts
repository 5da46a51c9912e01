/**
 * /logout's server work; routes/logout/route.tsx only delegates, importing no other server module (docs/architecture.md
 * "Inside app/").
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { isOwnNavigation } from "~/domain/fetch-site";
import { safeRedirect } from "~/domain/safe-redirect";
import { getAuth } from "~/services/apis.server";
import { logout } from "~/services/auth.server";

export { loaderCacheControl } from "~/services/page-headers.server";

function redirectParam(request: Request) {
  return safeRedirect(new URL(request.url).searchParams.get("redirect"));
}

/** POST /logout?redirect=… ends the session and follows a same-site redirect (server.ts refuses cross-site posts). */
export async function logoutPost({ request }: ActionFunctionArgs) {
  return logout(request, redirectParam(request));
}

/**
 * GET /logout?redirect=… (product §2's sign-on page) signs out at once when the user asked for it: from our own
 * pages or the address bar. A link from anywhere else gets a confirmation, never stored by a cache (it is one
 * signed-in user's page), so no other site can sign anyone out.
 */
export async function logoutPage({ request }: LoaderFunctionArgs) {
  const redirectTo = redirectParam(request);
  if (isOwnNavigation(request.headers.get("Sec-Fetch-Site"))) return logout(request, redirectTo);
  const { token } = await getAuth(request);
  if (!token) throw redirect(redirectTo);
  return json({ redirectTo }, { headers: { "Cache-Control": "no-store" } });
}
