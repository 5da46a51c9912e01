declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Per-request CSP nonce, made by server.ts; empty for a page of the page cache (its scripts go by their hashes). */
    cspNonce: string;
  }
}

export {};
