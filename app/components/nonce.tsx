import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
/**
 * The per-request CSP nonce; undefined in the browser, where React does not need it, and on a page rendered for any
 * cache (server/page-cache.ts), whose scripts are allowed by their hashes.
 */
export const useNonce = () => useContext(NonceContext) || undefined;
