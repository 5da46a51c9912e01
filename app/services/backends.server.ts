import { getEnv } from "./env.server";
import { createBackendClient, type BackendClient } from "./http-client.server";

/** Where the embedded backends answer: this very server, over loopback. */
function embeddedBaseUrl() {
  return `http://127.0.0.1:${getEnv().PORT}`;
}

/** Clients for the two backends of SPEC §7, carrying the session's token (when there is one). */
export function backendClients(token: string | null | undefined): { sso: BackendClient; market: BackendClient } {
  const env = getEnv();
  return {
    sso: createBackendClient({ baseUrl: env.SSO_API_URL ?? embeddedBaseUrl(), timeoutMs: env.BACKEND_TIMEOUT_MS, token }),
    market: createBackendClient({ baseUrl: env.MARKET_API_URL ?? embeddedBaseUrl(), timeoutMs: env.BACKEND_TIMEOUT_MS, token }),
  };
}
