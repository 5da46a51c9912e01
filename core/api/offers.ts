/** Offers (issue 30, docs/api/market.md "Offers"): what the market answers about them. Wei is a decimal string. */
import type { ChainOffer } from "./market";

/** Where an offer is accepted: a trade on the game ledger, or through the chain's Trading contract. */
export const OFFER_VENUES = ["game", "chain"] as const;
export type OfferVenue = (typeof OFFER_VENUES)[number];
export const OFFER_STATUSES = ["active", "accepted", "cancelled"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export interface OfferRecord {
  id: string;
  venue: OfferVenue;
  /** "item": for one token; "collection": for any item of `filter`. */
  kind: "item" | "collection";
  buyerAddress: string;
  nftType: number;
  tokenId: string | null;
  /** A collection offer's canonical listing filter (the market API's query form); "" on an item offer. */
  filter: string;
  /** How the buyer's page named the filter ("Type: Spaceship, Rarity: Legend"); "" on an item offer. */
  label: string;
  price: string;
  currency: string;
  /** Unix seconds: the signed expiry. */
  expiry: number;
  status: OfferStatus;
  createdAt: string;
  /** Whether the buyer's game balance covers the price now: an offer that cannot be paid cannot be accepted. */
  payable: boolean;
  /** A chain offer's signed Trading terms, what acceptOffer takes (decision 0024); absent on a game offer. */
  chainOffer?: ChainOffer;
}

/** An offer a holder can accept, with the item of theirs it is for (a collection offer may match several). */
export interface ReceivedOffer {
  offer: OfferRecord;
  item: { tokenId: string; nftType: number; name: string };
}

export interface OfferCancelAllResult {
  cancelled: number;
  counter: string;
}

/** The wallet's offer cancel-all counter, which every Offer it signs carries. */
export interface OfferContext {
  counter: string;
}
