import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

function NotFound({ what = "page" }: { what?: string }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <p className="text-6xl font-black text-spark-400">404</p>
      <h1 className="page-title mt-4">We can’t find this {what}</h1>
      <p className="muted mt-3">The link may be old, or the address mistyped. The marketplace and your storage are one click away.</p>
      <div className="mt-6 flex justify-center gap-3">
        <Link to="/home" className="btn-primary">
          Back home
        </Link>
        <Link to="/marketplace/market" className="btn-secondary">
          Browse the market
        </Link>
      </div>
    </div>
  );
}

/** The one error boundary UI: a 404 page for missing things, a calm message for everything else (no stack traces). */
export default function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFound />;
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <p className="text-5xl font-black text-spark-400">{error.status}</p>
        <h1 className="page-title mt-4">{error.statusText || "Request failed"}</h1>
        {typeof error.data === "string" && error.data && <p className="muted mt-3">{error.data}</p>}
        <Link to="/home" className="btn-primary mt-6">
          Back home
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="page-title">Something went wrong</h1>
      <p className="muted mt-3">An unexpected error stopped this page. Please try again in a moment.</p>
      <Link to="/home" className="btn-primary mt-6">
        Back home
      </Link>
    </div>
  );
}
