import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { isOwnNavigation } from "~/domain/fetch-site";
import { safeRedirect } from "~/domain/safe-redirect";
import { getAuth } from "~/services/apis.server";
import { logout } from "~/services/auth.server";

function redirectParam(request: Request) {
  return safeRedirect(new URL(request.url).searchParams.get("redirect"));
}

/** POST /logout?redirect=… ends the session and follows a same-site redirect (server.ts refuses cross-site posts). */
export async function action({ request }: ActionFunctionArgs) {
  return logout(request, redirectParam(request));
}

/**
 * GET /logout?redirect=… (product §2's sign-on page) signs out at once when the user asked for it: from our own
 * pages or the address bar. A link from anywhere else gets a confirmation, so no other site can sign anyone out.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = redirectParam(request);
  if (isOwnNavigation(request.headers.get("Sec-Fetch-Site"))) return logout(request, redirectTo);
  const { token } = await getAuth(request);
  if (!token) throw redirect(redirectTo);
  return json({ redirectTo }, { headers: { "Cache-Control": "no-store" } });
}

export const meta: MetaFunction = () => [{ title: "Log out | Spark Era" }, { name: "robots", content: "noindex" }];

export default function LogoutConfirmation() {
  const { redirectTo } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="page-title">Log out of Spark Era?</h1>
      <div className="card mt-6 flex flex-col gap-4">
        <p>A link from another site asked to log you out. You stay logged in unless you confirm.</p>
        <Form method="post" action={`/logout?redirect=${encodeURIComponent(redirectTo)}`}>
          <button type="submit" className="btn-primary w-full">
            Log out
          </button>
        </Form>
        <Link to="/home" className="text-sm">
          Stay logged in
        </Link>
      </div>
    </div>
  );
}
