import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { loaderCacheControl, logoutPage, logoutPost } from "~/routes/logout/route.server";

export const loader = logoutPage;

export const headers = loaderCacheControl;

export const action = logoutPost;

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
