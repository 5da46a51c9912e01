import { type MetaFunction } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-page";
import { pageMeta } from "~/features/share/page-meta";

export const meta: MetaFunction = (args) => pageMeta(args, { title: "Not found", noindex: true });

export function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFoundRoute() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
