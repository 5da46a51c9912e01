import { type MetaFunction } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-page";

export const meta: MetaFunction = () => [{ title: "Not found | Spark Era" }];

export function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFoundRoute() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
