/** Offer records (core/api/offers.ts) as the offer tables show them. */
import { sameAddress, shortAddress } from "~core/address";
import type { OfferRecord } from "~core/api/offers";
import { formatPrice } from "~core/money";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { CHAIN_UNPAYABLE } from "./chain-offer-rules";
import type { OfferRowView } from "./offer-views";

export const UNPAYABLE = "Can no longer be paid: the buyer’s game balance is below this price.";

const STATUS = { active: "Open", accepted: "Accepted", cancelled: "Cancelled" } as const;

/** "30 Nov 2026, 20:00 UTC": absolute, so a page never shows a countdown gone stale. */
export function untilText(expirySeconds: number): string {
  const date = new Date(expirySeconds * 1000);
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });
  return `${day}, ${time} UTC`;
}

/** "Any item of Hero cards · Rarity: Legend" (search-label.ts), or the label-less filter. */
export function collectionText(offer: OfferRecord): string {
  return `Any item of ${offer.label || offer.filter}`;
}

/** What an offer is for, as an item's page names it: the item itself, or the collection it covers. */
export const offerOnItemPage = (offer: OfferRecord): string => (offer.kind === "item" ? "This item" : collectionText(offer));

export function offerRow(
  offer: OfferRecord,
  {
    viewer,
    what,
    href,
    accept = null,
    now = Date.now(),
  }: {
    viewer: string | null;
    what: string;
    href: string | null;
    accept?: { tokenId: string; nftType: number } | null;
    now?: number;
  },
): OfferRowView {
  const open = offer.status === "active" && offer.expiry * 1000 > now;
  const mine = viewer !== null && sameAddress(offer.buyerAddress, viewer);
  return {
    id: offer.id,
    what,
    href,
    price: formatPrice(offer.price, offer.currency),
    buyer: mine ? "You" : shortAddress(offer.buyerAddress),
    until: untilText(offer.expiry),
    status: offer.status === "active" && !open ? "Expired" : STATUS[offer.status],
    unpayable: open && !offer.payable ? (offer.venue === "chain" ? CHAIN_UNPAYABLE : UNPAYABLE) : null,
    accept:
      open && offer.payable && accept
        ? { offerId: offer.id, ...accept, buyer: offer.buyerAddress, priceWei: offer.price, currency: offer.currency }
        : null,
    cancel: open && mine,
    // A chain offer's accept and cancel are executor actions: one key per render, so a double submit starts one.
    key: offer.chainOffer ? newIdempotencyKey() : null,
    chainOffer: offer.chainOffer ? JSON.stringify(offer.chainOffer) : null,
  };
}
