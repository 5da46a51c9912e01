import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";

/** The header that names a request across the app and its backends (taken from the client when valid, else made). */
export const REQUEST_ID_HEADER = "x-request-id";

/**
 * Where the time of one request went, for its Server-Timing header and the metrics' route label. Loaders run in
 * parallel, so their time is the span from the first start to the last end; backend time is the sum of the calls.
 */
export class RequestTimings {
  loader?: { start: number; end: number };
  action?: { start: number; end: number };
  renderMs?: number;
  backendMs = 0;
  backendCalls = 0;
  /** The deepest route that ran a loader, an action or the document: the metrics' route label. */
  route?: { id: string; depth: number };

  phase(name: "loader" | "action", start: number, end: number): void {
    const span = this[name];
    this[name] = span ? { start: Math.min(span.start, start), end: Math.max(span.end, end) } : { start, end };
  }

  backendCall(ms: number): void {
    this.backendMs += ms;
    this.backendCalls += 1;
  }

  routeRan(id: string, depth: number): void {
    if (!this.route || depth > this.route.depth) this.route = { id, depth };
  }
}

/** What every backend call made while serving one incoming request needs to know about that request. */
export interface RequestScope {
  /** The client's address as Express sees it (honours TRUST_PROXY): forwarded to the embedded backends. */
  clientIp: string;
  /** Epoch ms after which no backend call of this request may still wait: one deadline per request. */
  deadline: number;
  /** Forwarded to the backends as X-Request-Id, so their log lines carry the page's id. */
  requestId?: string;
  /** The request's logger: every line it writes carries the request id. */
  log?: Logger;
  timings?: RequestTimings;
  /** The answer is an HTML document (not a .data request): server markup then travels in it alone (serverMarkup). */
  document?: boolean;
  /** The document's server markup by key, for its render (services/server-html.server.ts serverMarkup). */
  markup?: Map<string, string>;
}

// server.ts and the Remix build each load their own copy of this module: one store for both, keyed globally.
const KEY = Symbol.for("spark-era.request-scope");
const holder = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<RequestScope> };
export const requestScope: AsyncLocalStorage<RequestScope> = (holder[KEY] ??= new AsyncLocalStorage<RequestScope>());

/** The scope of the request being served, or undefined outside one (tests, start-up, scripts). */
export function currentRequestScope(): RequestScope | undefined {
  return requestScope.getStore();
}

/** One problem line: in the request's JSON log, with its id, or on the console outside a request. */
export function logProblem(message: string, error?: unknown): void {
  const log = currentRequestScope()?.log;
  if (log) log.error(error === undefined ? {} : { err: error }, message);
  else if (error === undefined) console.error(message);
  else console.error(message, error);
}

/** An error in one line: viem's short message (its full one runs to dozens of lines), else the message. */
export { shortError } from "~core/rpc-errors";
