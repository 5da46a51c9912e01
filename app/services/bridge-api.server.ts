/** Typed calls of the market API's claims from the game to the chain (docs/api/market.md "Game balances and claims"). */
import type { ClaimRecord, GameBalances, SignedClaimWire, TokenRef } from "~core/api/market";
import type { BackendClient } from "./http-client.server";

export const BRIDGE_CURRENCIES = ["FIRE", "QUARK"] as const;
export type BridgeCurrency = (typeof BRIDGE_CURRENCIES)[number];

export function bridgeApi(market: BackendClient) {
  return {
    /** `requestKey`: the form's key, so the same form posted twice gets one claim. */
    takeOutToken: (amountWei: bigint, currency: BridgeCurrency, requestKey?: string) =>
      market.post<SignedClaimWire>("/api/v1/gameRelate/takeOutTokenSign", {
        query: { fire: amountWei.toString(), currency, gameTag: 1, requestKey },
      }),
    /** `amount`: how much of a material stack (default all of it). */
    takeOutItem: (ref: TokenRef, requestKey?: string, amount?: bigint) =>
      market.post<SignedClaimWire>("/api/v1/gameRelate/takeOutSign", {
        query: { takeOut: ref.tokenId, nftType: ref.nftType, gameTag: 1, requestKey, amount: amount?.toString() },
      }),
    claims: () => market.get<ClaimRecord[]>("/api/v1/gameRelate/claims"),
    /** A pending claim of the caller's, signed again, for its wallet to submit before the deadline. */
    claimSign: (txId: string) => market.get<SignedClaimWire>("/api/v1/gameRelate/claimSign", { query: { txId } }),
    balances: () => market.get<GameBalances>("/api/v1/gameRelate/getGameToken", { query: { gameTag: 1 } }),
  };
}
