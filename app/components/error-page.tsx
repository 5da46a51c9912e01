import { lazy } from "react";

/**
 * The one error boundary UI (error-boundary-view.tsx), loaded only by a page that shows an error: every page's bundle
 * is budgeted, and few pages fail. No Suspense boundary above it, so the server writes it inline (a boundary would
 * stream it hidden, for a script to reveal) and hydration waits for its chunk.
 */
export const GeneralErrorBoundary = lazy(() => import("./error-boundary-view"));
