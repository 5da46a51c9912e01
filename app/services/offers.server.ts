/**
 * Typed calls of the offer endpoints (docs/api/market.md "Offers"). Like every order, an offer, its cancel, the
 * buyer's cancel-all and the holder's acceptance reach the market signed: a managed wallet's by its custodian, the
 * SSO (orders.server.ts orderProofs), a browser wallet's with the proof its island posted.
 */
import { getAddress, type Address } from "viem";
import type { OfferCancelAllResult, OfferContext, OfferRecord, ReceivedOffer } from "~core/api/offers";
import type { ChainOffer, Page, SaleResult, TokenRef } from "~core/api/market";
import { expiryIn, newOrderNonce } from "~core/orders";
import { LISTING_STANDARD, offerTypedData, type TradeOffer, type TradeOfferTerms } from "~core/trading";
import type { BackendClient } from "./http-client.server";
import { decimalFields, orderProofs, signTrading, type CustodialListing, type ListingProof, type OrderSigning } from "./orders.server";

export interface OfferTerms {
  nftType: number;
  /** An item offer's token; a collection offer has `filter` instead. */
  tokenId?: string;
  /** The market API's listing query of the view (canonical on the backend). */
  filter?: string;
  label?: string;
  price: string;
  currency: string;
}

/**
 * A chain offer's terms (decision 0024), the same however it is signed: one token (`dataMask` 0), or any card of one
 * type (`tokenId` 0, core/trading.ts offerCriteria); always one ERC-721 item, paid in an ERC-20.
 */
export type ChainOfferTerms = TradeOfferTerms & { buyer: Address };

export function offersApi(market: BackendClient, sso: BackendClient) {
  const { proofOf } = orderProofs(market, sso);
  const offerContext = (address: string) => market.get<OfferContext>("/api/v1/marketplace/offerContext", { query: { address } });

  return {
    offerContext,
    /** A page of the item's open offers, best first; `offerId` asks for that one offer only (an accept names it). */
    itemOffers: (ref: TokenRef, paging: { pageNumber?: number; offerId?: string } = {}) =>
      market.get<Page<OfferRecord>>("/api/v1/marketplace/itemOffers", { query: { ...ref, ...paging } }),
    myOffers: () => market.get<OfferRecord[]>("/api/v1/marketplace/myOffers"),
    /** A page of the open offers on the caller's items, best first. */
    received: (paging: { pageNumber?: number } = {}) =>
      market.get<Page<ReceivedOffer>>("/api/v1/marketplace/offersReceived", { query: { ...paging } }),
    /**
     * `canonicalFilter` is what the custodian signs for a collection offer: the filter as the market stores it, which
     * the caller learns from the market (it is the filter as posted when the app built it canonical).
     */
    make: async (address: string, terms: OfferTerms, signing: OrderSigning) => {
      const buyer = getAddress(address);
      const counter = signing && "custodian" in signing ? (await offerContext(buyer)).counter : "0";
      const proof = await proofOf(signing, "Offer", buyer, () => ({
        buyer,
        nftType: terms.nftType,
        tokenId: BigInt(terms.tokenId ?? 0),
        filter: terms.filter ?? "",
        price: BigInt(terms.price),
        currency: terms.currency,
        counter: BigInt(counter),
      }));
      return market.post<OfferRecord>("/api/v1/informationCenter/makeOffer", { body: { address, ...terms, ...proof } });
    },
    cancel: async (address: string, offerId: string, signing: OrderSigning) => {
      const buyer = getAddress(address);
      const proof = await proofOf(signing, "OfferCancel", buyer, () => ({ buyer, offerId: BigInt(offerId) }));
      return market.post<OfferRecord>("/api/v1/informationCenter/cancelOffer", { body: { address, offerId, ...proof } });
    },
    cancelAll: async (address: string, counter: string | undefined, signing: OrderSigning) => {
      const buyer = getAddress(address);
      const signed = counter ?? (await offerContext(buyer)).counter;
      const proof = await proofOf(signing, "OfferCancelAll", buyer, () => ({ buyer, counter: BigInt(signed) }));
      return market.post<OfferCancelAllResult>("/api/v1/informationCenter/cancelAllOffers", {
        body: { address, counter: signed, ...proof },
      });
    },
    /**
     * Stores a chain offer: the one place a TradeOffer is built. A managed wallet's is made here (a random salt, the
     * expiry its days give, the counter read from Trading) and signed by the SSO under a key named by the salt; a
     * browser wallet's carries the salt, expiry, counter and signature its wallet signed.
     */
    chainOffer: async (terms: ChainOfferTerms, signing: ListingProof | CustodialListing) => {
      const custodial = "custodian" in signing;
      const offer: TradeOffer = {
        ...terms,
        buyer: getAddress(terms.buyer),
        collection: getAddress(terms.collection),
        currency: getAddress(terms.currency),
        standard: LISTING_STANDARD.erc721,
        amount: 1n,
        expiry: custodial ? expiryIn(signing.ttlSeconds) : BigInt(signing.expiry),
        salt: custodial ? newOrderNonce() : BigInt(signing.salt),
        counter: custodial ? signing.counter : BigInt(signing.counter),
      };
      const signature = custodial
        ? await signTrading(sso, offerTypedData(offer, signing.chainId, signing.trading), `trade-offer-${offer.salt.toString(36)}`)
        : signing.signature;
      return market.post<{ id: string; chainOffer: ChainOffer }>("/api/v1/informationCenter/chainOffer", {
        body: { ...decimalFields(offer), signature },
      });
    },
    /** The holder accepts `offer` for their item `ref`: the order names the offer, the item, its buyer and price. */
    accept: async (address: string, offer: OfferRecord, ref: TokenRef, signing: OrderSigning) => {
      const seller = getAddress(address);
      const proof = await proofOf(signing, "OfferAccept", seller, () => ({
        offerId: BigInt(offer.id),
        tokenId: BigInt(ref.tokenId),
        nftType: ref.nftType,
        seller,
        buyer: getAddress(offer.buyerAddress),
        price: BigInt(offer.price),
        currency: offer.currency,
      }));
      return market.post<{ offer: OfferRecord; sale: SaleResult["sale"] }>("/api/v1/informationCenter/acceptOffer", {
        body: { address, offerId: offer.id, ...ref, ...proof },
      });
    },
  };
}
