import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * With JavaScript, runs the route's loaders again every `intervalMs` while `active`, one revalidation at a time,
 * so the page updates in place; without it the page's <noscript> meta refresh does the same job.
 */
export function usePollWhile(active: boolean, intervalMs = 1000) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const idle = revalidator.state === "idle";
  useEffect(() => {
    if (!active || !idle) return;
    const timer = window.setTimeout(() => revalidate.current(), intervalMs);
    return () => window.clearTimeout(timer);
  }, [active, idle, intervalMs]);
}
