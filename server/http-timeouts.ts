/**
 * How long the public listener waits for a client. Node's defaults held a slow body 329 s and a slowloris
 * connection 89 s. Our largest body is 100 KB (server/form-body.ts), seconds even on a poor mobile link, and a browser
 * sends its headers at once, so a whole request gets 30 s and its headers 10 s. Node checks the deadlines every
 * `connectionsCheckingInterval`: 30 s by default, which would stretch the 10 s to 40.
 */
export const HTTP_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 } as const;
