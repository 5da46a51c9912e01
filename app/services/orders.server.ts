/**
 * Typed calls of the signed order endpoints (docs/api.md "Signed orders") through the market backend client.
 * A managed wallet (BindAddrType 2) sends no proof: the backend signs. A browser wallet sends the proof it signed.
 */
import type { CancelAllResult, GameBalances, ListingRecord, OrderContext, SaleResult, TokenRef } from "~core/api/market";
import type { BackendClient } from "./http-client.server";

/** What a browser wallet adds to an order: its signature over the typed data, the nonce and expiry it signed, its chain. */
export interface OrderProof {
  nonce?: string;
  expiry?: number;
  signature?: `0x${string}`;
  chainId?: number;
}

const proofOf = (proof: OrderProof = {}) =>
  Object.fromEntries(Object.entries(proof).filter(([, value]) => value !== undefined && value !== ""));

export function ordersApi(market: BackendClient) {
  return {
    orderContext: (address?: string) => market.get<OrderContext>("/api/v1/marketplace/orderContext", { query: { address } }),
    sell: (ref: TokenRef, input: { address: string; price: string; currency: string }, proof?: OrderProof) =>
      market.post<ListingRecord>("/api/v1/informationCenter/sellToken", {
        body: {
          ...ref,
          ownerAddress: input.address,
          address: input.address,
          price: input.price,
          currency: input.currency,
          ...proofOf(proof),
        },
      }),
    cancel: (ref: TokenRef, address: string, proof?: OrderProof) =>
      market.post<ListingRecord>("/api/v1/informationCenter/cancelSell", { body: { ...ref, address, ...proofOf(proof) } }),
    /** `listingId` is the listing the buyer confirmed: the backend refuses any other (409) and the Buy order names it. */
    buy: (ref: TokenRef, input: { address: string; price: string; listingId: string }, proof?: OrderProof) =>
      market.post<SaleResult>("/api/v1/informationCenter/buyToken", { body: { ...ref, ...input, ...proofOf(proof) } }),
    transfer: (ref: TokenRef, input: { address: string; to: string }, proof?: OrderProof) =>
      market.post<ListingRecord>("/api/v1/informationCenter/transferToken", { body: { ...ref, ...input, ...proofOf(proof) } }),
    /** Ends every listing of the wallet: `counter` is the wallet's current cancel-all counter (what was signed). */
    cancelAll: (address: string, counter: string, proof?: OrderProof) =>
      market.post<CancelAllResult>("/api/v1/informationCenter/cancelAllSell", { body: { address, counter, ...proofOf(proof) } }),
    gameBalances: (gameTag = 1) => market.get<GameBalances>("/api/v1/gameRelate/getGameToken", { query: { gameTag } }),
  };
}
