declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Per-request CSP nonce, made by server.ts. */
    cspNonce: string;
  }
}

export {};
