/** What the offer tables show, worked out on the server (offer-views.server.ts), so the pages carry no formatting code. */
import type { SubmissionResult } from "@conform-to/react";
import type { PageInfo } from "~/features/market/market-views";
import type { Currency } from "~core/money";

export interface OfferRowView {
  id: string;
  /** What the offer is for: an item's name, or "Any item of …" for a collection offer. */
  what: string;
  /** Where `what` links: the item, or the market view of a collection offer; null when there is none. */
  href: string | null;
  price: string;
  buyer: string;
  /** The signed expiry as a date (never "in 3 hours": a page stays right however long it is open). */
  until: string;
  status: string;
  /** "Can no longer be paid": the buyer's game balance is below the price now; such an offer cannot be accepted. */
  unpayable: string | null;
  /** The holder's accept form's fields (buyer, priceWei and currency for a browser wallet's island); null when the viewer cannot accept it. */
  accept: { offerId: string; tokenId: string; nftType: number; buyer: string; priceWei: string; currency: string } | null;
  /** The buyer's cancel form; false when the viewer cannot cancel it. */
  cancel: boolean;
  /** A chain offer's idempotency key for its accept or cancel (a managed wallet's executor action); null for a game offer. */
  key: string | null;
  /** A chain offer's signed terms (JSON), posted back whole with its accept or cancel; null for a game offer. */
  chainOffer: string | null;
}

/** Where a browser wallet's island sends chain offers (decision 0024): the trading contract and each currency's token. */
export interface ChainOfferChain {
  chainId: number;
  trading: `0x${string}`;
  currencies: Record<Currency, `0x${string}`>;
}

/**
 * What a chain offer made on the offers page names (one token, or a card type's data bits), and how much of each
 * currency the buyer's open chain offers already need of the allowance. A view's offer goes on chain only when the
 * form pays from the wallet (`whenPaidFromChain`).
 */
export interface ChainOfferDraft {
  collection: `0x${string}`;
  tokenId: string;
  dataMask: string;
  dataValue: string;
  committed: Partial<Record<Currency, string>>;
  whenPaidFromChain: boolean;
}

export const OFFERS_PATH = "/marketplace/offers";

/** A list of offers longer than a page (issue 43): which page is shown, the links to the others, and what it shows. */
export interface OfferPagesView {
  info: PageInfo;
  hrefs: Record<number, string>;
  /** "Offers 21–40 of 57, best first". */
  text: string;
}

/** What an offer form's post answers: the form's own problems, or a backend's refusal in words. */
export interface OfferActionData {
  intent: string;
  result: SubmissionResult<string[]> | null;
  failed: string | null;
}
