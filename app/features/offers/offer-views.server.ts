/** Offer records (core/api/offers.ts) as the offer tables show them. */
import { sameAddress, shortAddress } from "~core/address";
import type { OfferRecord } from "~core/api/offers";
import { formatPrice } from "~core/money";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { CHAIN_UNPAYABLE } from "./chain-offer-rules";
import type { OfferPagesView, OfferRowView } from "./offer-views";
import { lastPage, pageHrefs } from "~/features/market/paging";
import type { Page } from "~core/api/market";

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

/** The query key of a page of offers on the item page and in storage. */
export const OFFERS_PAGE_KEY = "offersPage";

/** The page of offers a URL asks for (`offersPage`), the first unless it names a whole number from 1 to 500. */
export function offersPageOf(search: URLSearchParams): number {
  const text = search.get(OFFERS_PAGE_KEY) ?? "";
  return /^[1-9]\d{0,2}$/.test(text) && Number(text) <= 500 ? Number(text) : 1;
}

/**
 * The paging of a list of offers longer than one page, or null: plain links (they work without JavaScript) to
 * `hrefFor(n)`, the pages the market's pagination shows (features/market/paging.ts).
 */
export function offerPages(page: Page<unknown>, hrefFor: (pageNumber: number) => string): OfferPagesView | null {
  const info = { page: page.pageNumber, pageSize: page.pageSize, total: page.total, capped: page.totalCapped };
  if (lastPage(info) <= 1 && info.page <= 1) return null;
  const first = (info.page - 1) * info.pageSize + 1;
  const last = Math.min(info.page * info.pageSize, info.total);
  const total = `${info.total}${info.capped ? "+" : ""}`;
  const text = first > info.total ? `${total} offers, best first` : `Offers ${first}–${last} of ${total}, best first`;
  return { info, hrefs: pageHrefs(info, hrefFor), text };
}

/** `path` (a page's own URL, query kept) at page `n` of its offers, scrolled to `anchor`. */
export function withOffersPage(path: string, n: number, anchor: string): string {
  const url = new URL(path, "http://local");
  if (n === 1) url.searchParams.delete(OFFERS_PAGE_KEY);
  else url.searchParams.set(OFFERS_PAGE_KEY, String(n));
  return `${url.pathname}${url.search}#${anchor}`;
}
