/**
 * Server-Timing on pages and data requests (issue 16), from the request's scope: the loaders' and the action's time
 * from wrapping each route's loader and action in the build, the backend time as the sum of the backend calls
 * (app/services/http-client.server.ts), the render time from app/entry.server.tsx. The header is added as the
 * response's head is written, so a page kept by the page cache never replays the timings of the request that
 * rendered it.
 */
import type { ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { currentRequestScope, type RequestTimings } from "../app/services/request-scope.server";

type DataFunction = NonNullable<ServerBuild["routes"][string]["module"]["loader"]>;

function timed(fn: DataFunction, phase: "loader" | "action", routeId: string, depth: number): DataFunction {
  return async (args) => {
    const timings = currentRequestScope()?.timings;
    timings?.routeRan(routeId, depth);
    const start = performance.now();
    try {
      return await fn(args);
    } finally {
      timings?.phase(phase, start, performance.now());
    }
  };
}

const wrapped = new WeakMap<ServerBuild, ServerBuild>();

/** `build` with every loader and action timed into the request scope (and naming its route, for the metrics). */
export function timedBuild(build: ServerBuild): ServerBuild {
  const known = wrapped.get(build);
  if (known) return known;
  const depth = (id: string): number => {
    const parent = build.routes[id]?.parentId;
    return parent ? 1 + depth(parent) : 0;
  };
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const { loader, action } = route.module;
      const module = {
        ...route.module,
        ...(loader ? { loader: timed(loader, "loader", id, depth(id)) } : {}),
        ...(action ? { action: timed(action, "action", id, depth(id)) } : {}),
      };
      return [id, { ...route, module }];
    }),
  );
  const timedOne = { ...build, routes };
  wrapped.set(build, timedOne);
  return timedOne;
}

const ms = (value: number) => value.toFixed(1);

/** The Server-Timing value of what was measured, or null when nothing was (a cached page, a static file). */
export function serverTimingValue(timings: RequestTimings): string | null {
  const metrics: string[] = [];
  if (timings.action) metrics.push(`action;dur=${ms(timings.action.end - timings.action.start)}`);
  if (timings.loader) metrics.push(`loader;dur=${ms(timings.loader.end - timings.loader.start)}`);
  if (timings.action || timings.loader || timings.backendCalls) {
    metrics.push(`backend;dur=${ms(timings.backendMs)};desc="${timings.backendCalls} calls"`);
  }
  if (timings.renderMs !== undefined) metrics.push(`render;dur=${ms(timings.renderMs)}`);
  return metrics.length ? metrics.join(", ") : null;
}

/** Adds the request's Server-Timing to `res` as its head is written (after any value already set, e.g. Sentry's). */
export function serverTimingOnHead(res: ServerResponse, timings: RequestTimings): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    const value = serverTimingValue(timings);
    if (value && !this.headersSent) {
      const before = this.getHeader("server-timing");
      this.setHeader("Server-Timing", before ? `${String(before)}, ${value}` : value);
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}
