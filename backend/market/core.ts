import type { BackendContext, SsoAuth } from "../types";
import { claimSigner } from "./claims";
import { MarketDb } from "./db";

/** The market backend's parts, shared by its routes: its database, the claim signer, the options and the SSO's auth. */
export function createMarketCore({ store, options }: BackendContext, ssoAuth: SsoAuth) {
  return { db: new MarketDb(store), signer: claimSigner(options), options, ssoAuth };
}

export type MarketCore = ReturnType<typeof createMarketCore>;
