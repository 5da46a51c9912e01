/**
 * Sentry in the browser (issue 16). root.tsx imports this module dynamically, and only when the root loader passes
 * a DSN (SENTRY_DSN): without one, no Sentry code is downloaded. Every trace is sampled, as SPEC asks.
 */
import { useLocation, useMatches } from "@remix-run/react";
import { browserTracingIntegration, captureConsoleIntegration, init } from "@sentry/remix";
import { useEffect } from "react";
import { TRACE_SAMPLE_RATE } from "~core/constants";
// Reaching React's JSX runtime too keeps it in one chunk with React: otherwise the code splitter cuts that chunk in
// two for this module, and every page downloads one more file (+0.5 KB gzipped) whether or not Sentry loads.
import "react/jsx-runtime";

let started = false;

export function startSentry(dsn: string): void {
  if (started) return;
  started = true;
  init({
    dsn,
    tracesSampleRate: TRACE_SAMPLE_RATE,
    integrations: [
      browserTracingIntegration({ useEffect, useLocation, useMatches }),
      // React reports an error a route's error boundary caught only to console.error, never to the global handlers.
      captureConsoleIntegration({ levels: ["error"] }),
    ],
  });
}
