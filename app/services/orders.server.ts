/**
 * Typed calls of the signed order endpoints (docs/api/market.md "Signed orders") through the market backend client.
 * Every order reaches the market signed, and the market verifies each the same way: a browser wallet posts the
 * proof it signed in the browser; a managed wallet's (BindAddrType 2) order is built here exactly as the island
 * builds it (core/orders.ts, in the market's published domain) and signed by its custodian, the SSO
 * (POST /sso/signOrder). The market never holds a key.
 */
import { getAddress, type Address, type Hex } from "viem";
import type { CancelAllResult, GameBalances, ListingRecord, OrderContext, SaleResult, TokenRef } from "~core/api/market";
import type { OrderSignature } from "~core/api/sso";
import { expiryIn, newOrderNonce, orderJson, orderLifetimeSeconds, orderTypedData, type OrderKind, type OrderMessages } from "~core/orders";
import { listingTypedData, type Listing, type ListingStandard } from "~core/trading";
import type { BackendClient } from "./http-client.server";

/** What a browser wallet adds to an order: its signature over the typed data, the nonce and expiry it signed, its chain. */
export interface OrderProof {
  nonce?: string;
  expiry?: number;
  signature?: `0x${string}`;
  chainId?: number;
}

/** A managed wallet's order: built here, signed by the SSO. `ttlSeconds` is a listing's lifetime (sell only). */
export interface CustodialSigning {
  custodian: true;
  ttlSeconds?: number;
}

/** Who signs an order: the proof a browser wallet posted (undefined when it posted none), or the custodian. */
export type OrderSigning = OrderProof | CustodialSigning | undefined;

export const custodian = (ttlSeconds?: number): CustodialSigning => ({ custodian: true, ttlSeconds });

const isCustodial = (signing: OrderSigning): signing is CustodialSigning => Boolean(signing && "custodian" in signing);

const proofFields = (proof: OrderProof = {}) =>
  Object.fromEntries(Object.entries(proof).filter(([, value]) => value !== undefined && value !== ""));

/** What a browser wallet signed for a chain listing (docs/api/market.md "Chain listings"): its own salt, expiry and counter. */
export interface ListingProof {
  salt: string;
  expiry: string;
  counter: string;
  signature: Hex;
}

/** A managed wallet's chain listing: its Trading counter read now, how long it lasts, and the trading contract's domain. */
export interface CustodialListing {
  custodian: true;
  counter: bigint;
  ttlSeconds: number;
  chainId: number;
  trading: Address;
}

/**
 * The listing's terms, the same however it is signed: a card or loot box whole (ERC-721, amount 1), or an amount of a
 * SparkItems stack (ERC-1155, `tokenId` the SparkItems id).
 */
export interface ListingTerms {
  seller: string;
  collection: Address;
  standard: ListingStandard;
  tokenId: string;
  amount: bigint;
  currency: Address;
  price: bigint;
}

/** uint256 fields as decimal strings: how the SSO and the market take a listing. */
export const decimalFields = (message: object) =>
  Object.fromEntries(Object.entries(message).map(([name, value]) => [name, typeof value === "bigint" ? value.toString() : value]));

/** An order's own fields: what the SSO signs besides the nonce and expiry. */
type OrderFields<K extends OrderKind> = Omit<OrderMessages[K], "nonce" | "expiry">;

/** A Trading order (a Listing or a TradeOffer) signed by the SSO for a managed wallet, under a key named by its salt. */
export async function signTrading(
  sso: BackendClient,
  typed: { domain: object; primaryType: "Listing" | "TradeOffer"; message: object },
  idempotencyKey: string,
): Promise<Hex> {
  const body = { primaryType: typed.primaryType, domain: typed.domain, message: decimalFields(typed.message), idempotencyKey };
  return (await sso.post<OrderSignature>("/sso/signOrder", { body })).signature;
}

/**
 * The proof fields to post with an order, shared by the orders and offers APIs. A managed wallet's order is made as
 * the island makes it: a fresh nonce, the kind's lifetime, the market's domain from its order context; the SSO signs
 * it under a key named by the nonce, so a repeated call answers the same signature. `fields` is null when the order
 * cannot be built (a buy whose listing is unknown): it goes unsigned, and the market's own checks answer.
 */
export function orderProofs(market: BackendClient, sso: BackendClient) {
  const orderContext = (address?: string) => market.get<OrderContext>("/api/v1/marketplace/orderContext", { query: { address } });

  async function proofOf<K extends OrderKind>(
    signing: OrderSigning,
    kind: K,
    signer: Address,
    fields: ((context: OrderContext) => OrderFields<K>) | null,
    known?: OrderContext,
  ): Promise<Record<string, unknown>> {
    if (!isCustodial(signing)) return proofFields(signing);
    if (!fields) return {};
    const context = known ?? (await orderContext(signer));
    const nonce = newOrderNonce();
    const expiry = expiryIn(signing.ttlSeconds ?? orderLifetimeSeconds(kind));
    const domain = { chainId: context.domain.chainId, verifyingContract: getAddress(context.domain.verifyingContract) };
    const typed = orderTypedData(domain, kind, { ...fields(context), nonce, expiry } as OrderMessages[K]);
    const { signature } = await sso.post<OrderSignature>("/sso/signOrder", {
      body: { ...orderJson(typed), idempotencyKey: `order-${nonce.toString(36)}` },
    });
    return { signature, nonce: nonce.toString(), expiry: Number(expiry) };
  }
  return { orderContext, proofOf };
}

export function ordersApi(market: BackendClient, sso: BackendClient) {
  const { orderContext, proofOf } = orderProofs(market, sso);

  return {
    orderContext,
    sell: async (ref: TokenRef, input: { address: string; price: string; currency: string }, signing?: OrderSigning) => {
      const seller = getAddress(input.address);
      const proof = await proofOf(signing, "Sell", seller, (context) => ({
        tokenId: BigInt(ref.tokenId),
        nftType: ref.nftType,
        seller,
        price: BigInt(input.price),
        currency: input.currency,
        counter: BigInt(context.counter),
      }));
      return market.post<ListingRecord>("/api/v1/informationCenter/sellToken", {
        body: { ...ref, ownerAddress: input.address, address: input.address, price: input.price, currency: input.currency, ...proof },
      });
    },
    cancel: async (ref: TokenRef, address: string, signing?: OrderSigning) => {
      const seller = getAddress(address);
      const proof = await proofOf(signing, "Cancel", seller, () => ({ tokenId: BigInt(ref.tokenId), nftType: ref.nftType, seller }));
      return market.post<ListingRecord>("/api/v1/informationCenter/cancelSell", { body: { ...ref, address, ...proof } });
    },
    /**
     * `listingId` is the listing the buyer confirmed: the backend refuses any other (409) and the Buy order names it.
     * `seller` and `currency` are that listing's, for the order a managed wallet's custodian signs.
     */
    buy: async (
      ref: TokenRef,
      input: { address: string; price: string; listingId: string; seller?: string; currency?: string },
      signing?: OrderSigning,
    ) => {
      const { seller, currency, ...posted } = input;
      const buyer = getAddress(input.address);
      const listed = seller && currency ? { seller: getAddress(seller), currency } : null;
      const proof = await proofOf(
        signing,
        "Buy",
        buyer,
        listed &&
          (() => ({
            tokenId: BigInt(ref.tokenId),
            nftType: ref.nftType,
            listingId: BigInt(input.listingId),
            seller: listed.seller,
            buyer,
            price: BigInt(input.price),
            currency: listed.currency,
          })),
      );
      return market.post<SaleResult>("/api/v1/informationCenter/buyToken", { body: { ...ref, ...posted, ...proof } });
    },
    transfer: async (ref: TokenRef, input: { address: string; to: string }, signing?: OrderSigning) => {
      const from = getAddress(input.address);
      const proof = await proofOf(signing, "Transfer", from, () => ({
        tokenId: BigInt(ref.tokenId),
        nftType: ref.nftType,
        from,
        to: getAddress(input.to),
      }));
      return market.post<ListingRecord>("/api/v1/informationCenter/transferToken", { body: { ...ref, ...input, ...proof } });
    },
    /**
     * Ends every listing of the wallet: `counter` is the cancel-all counter that was signed; without one, the
     * wallet's current counter (the one a managed wallet's custodian signs).
     */
    cancelAll: async (address: string, counter: string | undefined, signing?: OrderSigning) => {
      const seller = getAddress(address);
      const context = counter === undefined ? await orderContext(address) : undefined;
      const signed = counter ?? context!.counter;
      const proof = await proofOf(signing, "CancelAll", seller, () => ({ seller, counter: BigInt(signed) }), context);
      return market.post<CancelAllResult>("/api/v1/informationCenter/cancelAllSell", { body: { address, counter: signed, ...proof } });
    },
    /**
     * Lists a chain-held item on the trading contract: the one place a Listing is built. A managed wallet's is made
     * here (a random salt, the expiry its days give, the counter read from Trading) and signed by the SSO under a key
     * named by the salt; a browser wallet's carries the salt, expiry, counter and signature its wallet signed.
     */
    chainSell: async (terms: ListingTerms, signing: ListingProof | CustodialListing) => {
      const custodial = "custodian" in signing;
      const listing: Listing = {
        seller: getAddress(terms.seller),
        collection: getAddress(terms.collection),
        standard: terms.standard,
        tokenId: BigInt(terms.tokenId),
        amount: terms.amount,
        currency: getAddress(terms.currency),
        price: terms.price,
        expiry: custodial ? expiryIn(signing.ttlSeconds) : BigInt(signing.expiry),
        salt: custodial ? newOrderNonce() : BigInt(signing.salt),
        counter: custodial ? signing.counter : BigInt(signing.counter),
      };
      const signature = custodial
        ? await signTrading(sso, listingTypedData(listing, signing.chainId, signing.trading), `listing-${listing.salt.toString(36)}`)
        : signing.signature;
      return market.post<ListingRecord>("/api/v1/informationCenter/chainSell", { body: { ...decimalFields(listing), signature } });
    },
    gameBalances: (gameTag = 1) => market.get<GameBalances>("/api/v1/gameRelate/getGameToken", { query: { gameTag } }),
  };
}
