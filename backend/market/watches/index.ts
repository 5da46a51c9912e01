/**
 * Watched searches (docs/api/market.md "Watched searches"): watches, the alerts a new listing raises, and their
 * digests by mail. What other market features and core.ts use goes through this file; its routes (watch-routes.ts)
 * are mounted by service.ts only.
 */
export { alertWatches } from "./watches";
export { createDigestRunner, ssoDigestSender } from "./watch-digest";
export { createWatchTokens } from "./watch-tokens";
