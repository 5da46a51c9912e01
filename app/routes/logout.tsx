import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/domain/safe-redirect";
import { logout } from "~/services/auth.server";

/** POST /logout?redirect=… ends the session and follows a same-site redirect. */
export async function action({ request }: ActionFunctionArgs) {
  return logout(request, safeRedirect(new URL(request.url).searchParams.get("redirect")));
}

/** GET /logout (SPEC §2 sign-on page) works too: a link from anywhere signs out. */
export async function loader({ request }: LoaderFunctionArgs) {
  return logout(request, safeRedirect(new URL(request.url).searchParams.get("redirect")));
}
