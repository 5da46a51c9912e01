import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";

/** The header that names a request across the app and its backends (taken from the client when valid, else made). */
export const REQUEST_ID_HEADER = "x-request-id";

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
}

// server.ts and the Remix build each load their own copy of this module: one store for both, keyed globally.
const KEY = Symbol.for("spark-era.request-scope");
const holder = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<RequestScope> };
export const requestScope: AsyncLocalStorage<RequestScope> = (holder[KEY] ??= new AsyncLocalStorage<RequestScope>());

/** The scope of the request being served, or undefined outside one (tests, start-up, scripts). */
export function currentRequestScope(): RequestScope | undefined {
  return requestScope.getStore();
}
