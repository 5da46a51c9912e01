import { getEnv } from "./env.server";
import { createBackendClient, type BackendClient } from "./http-client.server";
import { internalTokenFor } from "./internal-token.server";

/** Where the embedded backends answer: this very server, over loopback. */
function embeddedBaseUrl() {
  return `http://127.0.0.1:${getEnv().PORT}`;
}

/** Clients for the two backends of product §7, carrying the session's token (when there is one). */
export function backendClients(token: string | null | undefined): { sso: BackendClient; market: BackendClient } {
  const env = getEnv();
  // The internal token goes to our own embedded backends, and to an external one only when INTERNAL_TOKEN is configured.
  const client = (externalUrl: string | undefined) =>
    createBackendClient({
      baseUrl: externalUrl ?? embeddedBaseUrl(),
      timeoutMs: env.BACKEND_TIMEOUT_MS,
      token,
      internalToken: internalTokenFor(externalUrl, env.INTERNAL_TOKEN),
    });
  return { sso: client(env.SSO_API_URL), market: client(env.MARKET_API_URL) };
}
