import { inProcessTransport } from "./embedded-backends.server";
import { getEnv } from "./env.server";
import { createBackendClient, type BackendClient } from "./http-client.server";
import { internalTokenFor } from "./internal-token.server";

/** Where the embedded backends answer over HTTP: this very server, over loopback (when not called in process). */
function embeddedBaseUrl() {
  return `http://127.0.0.1:${getEnv().PORT}`;
}

/**
 * Clients for the two backends of product §7, carrying the session's token (when there is one). A backend with no
 * URL configured is the embedded one: called in this process when server.ts set that up (decision 0036), else over
 * loopback; SSO_API_URL and MARKET_API_URL always point the app at real ones over HTTP.
 */
export function backendClients(token: string | null | undefined): { sso: BackendClient; market: BackendClient } {
  const env = getEnv();
  const inProcess = inProcessTransport();
  // The internal token goes to our own embedded backends, and to an external one only when INTERNAL_TOKEN is configured.
  const client = (externalUrl: string | undefined) =>
    createBackendClient({
      baseUrl: externalUrl ?? embeddedBaseUrl(),
      transport: externalUrl ? undefined : inProcess,
      timeoutMs: env.BACKEND_TIMEOUT_MS,
      token,
      internalToken: internalTokenFor(externalUrl, env.INTERNAL_TOKEN),
    });
  return { sso: client(env.SSO_API_URL), market: client(env.MARKET_API_URL) };
}
