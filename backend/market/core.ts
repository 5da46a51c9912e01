import { type BackendContext, siteUrlOf } from "../types";
import { claimSigner } from "./claims";
import { MarketDb } from "./shared/db";
import { createTokenOwners } from "./shared/token-owners";
import { createDigestRunner, ssoDigestSender, createWatchTokens } from "./watches";

/** The market backend's parts, shared by its routes: its database, the claim signer, the options, and who owns a token (asked of the SSO). */
export function createMarketCore({ store, options }: BackendContext) {
  const db = new MarketDb(store);
  const watchTokens = createWatchTokens(options.walletEncryptionKey);
  return {
    db,
    signer: claimSigner(options),
    options,
    tokenOwner: createTokenOwners(options.ssoApi),
    watchTokens,
    /** Mails the watch digests (watches/watch-digest.ts): kicked after each listing, and on its own timer. */
    watchDigest: createDigestRunner(db, {
      siteUrl: siteUrlOf(options),
      tokens: watchTokens,
      send: ssoDigestSender(options.ssoApi),
      log: options.log,
    }),
  };
}

export type MarketCore = ReturnType<typeof createMarketCore>;
