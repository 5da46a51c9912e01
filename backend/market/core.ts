import type { BackendContext } from "../types";
import { claimSigner } from "./claims";
import { MarketDb } from "./db";
import { createTokenOwners } from "./token-owners";

/** The market backend's parts, shared by its routes: its database, the claim signer, the options, and who owns a token (asked of the SSO). */
export function createMarketCore({ store, options }: BackendContext) {
  return { db: new MarketDb(store), signer: claimSigner(options), options, tokenOwner: createTokenOwners(options.ssoApi) };
}

export type MarketCore = ReturnType<typeof createMarketCore>;
