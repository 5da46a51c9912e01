import { AUTH_TOKEN_HEADER } from "~/domain/constants";

/** SPEC §8: what a 401 rejects with. */
export const SESSION_EXPIRED_REASON = "Invalid session, or session has expired, please log in again.";

/** A 401 from a backend: the app shows the "Tips" dialog and offers a re-login. */
export class SessionExpiredError extends Error {
  constructor() {
    super(SESSION_EXPIRED_REASON);
    this.name = "SessionExpiredError";
  }
}

/** Any other failure: `message` is the backend's msg (or a plain-words reason), shown in the "Failed" alert. */
export class BackendError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "BackendError";
  }
}

export type QueryValue = string | number | boolean | bigint | null | undefined | QueryValue[] | { [key: string]: QueryValue };

/**
 * SPEC §7: GET parameters go in the query string, nested objects written as `name[key]`.
 * Arrays become comma lists; null and undefined are left out.
 */
export function toQueryString(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  const add = (name: string, value: QueryValue) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      if (value.length) search.append(name, value.map(String).join(","));
    } else if (typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) add(`${name}[${key}]`, inner);
    } else {
      search.append(name, String(value));
    }
  };
  for (const [name, value] of Object.entries(params)) add(name, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Leave the authToken header off even when a token exists (SPEC §6: a request may opt out). */
  anonymous?: boolean;
}

interface Envelope {
  code?: number;
  msg?: string;
  codeError?: string;
  success?: boolean;
  data?: unknown;
}

export interface BackendClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, options?: RequestOptions): Promise<T>;
}

/** One small client per backend: timeout, auth header, unwrapped body, typed errors. */
export function createBackendClient({ baseUrl, timeoutMs, token }: { baseUrl: string; timeoutMs: number; token?: string | null }): BackendClient {
  async function request<T>(method: "GET" | "POST", path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token && !options.anonymous) headers[AUTH_TOKEN_HEADER] = token;
    if (options.body !== undefined) headers["content-type"] = "application/json";

    let response: Response;
    try {
      response = await fetch(baseUrl.replace(/\/$/, "") + path + toQueryString(options.query ?? {}), {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body, (_key, value) => (typeof value === "bigint" ? value.toString() : value)),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
        throw new BackendError("The server took too long to answer. Please try again.", 504);
      }
      throw new BackendError("The server could not be reached. Please try again.", 502);
    }

    let envelope: Envelope | undefined;
    try {
      envelope = (await response.json()) as Envelope;
    } catch {
      envelope = undefined;
    }
    if (response.status === 401 || envelope?.code === 401) throw new SessionExpiredError();
    const code = envelope?.code ?? response.status;
    if (!response.ok || !envelope || code !== 200 || envelope.success === false) {
      const message = envelope?.msg || envelope?.codeError || `Request failed (${response.status})`;
      throw new BackendError(message, response.ok ? 400 : response.status);
    }
    return envelope.data as T;
  }

  return {
    get: (path, options) => request("GET", path, options),
    post: (path, options) => request("POST", path, options),
  };
}
