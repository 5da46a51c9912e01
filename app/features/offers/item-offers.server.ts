/**
 * The item page's offers (issue 30), for a signed-in viewer only: a visitor's page is cached by its URL
 * (server/page-cache.ts), and offers change with balances and time, which the page generation does not follow.
 */
import type { Apis } from "~/services/apis.server";
import type { TokenRef } from "~core/api/market";
import { OFFERS_PATH, type OfferRowView } from "./offer-views";
import { collectionText, offerRow } from "./offer-views.server";

export interface ItemOffersView {
  rows: OfferRowView[];
  /** Where the offer form posts (the offers page for this item); null for the holder, who accepts instead. */
  makeAction: string | null;
  back: string;
}

export async function itemOffersView(
  offers: Apis["offers"],
  ref: TokenRef,
  viewer: { wallet: string | null; holds: boolean },
  back: string,
): Promise<ItemOffersView | null> {
  const open = await offers.itemOffers(ref).catch(() => null);
  if (!open) return null;
  const rows = open.map((offer) =>
    offerRow(offer, {
      viewer: viewer.wallet,
      what: offer.kind === "item" ? "This item" : collectionText(offer),
      href: null,
      accept: viewer.holds ? ref : null,
    }),
  );
  const makeAction = viewer.holds ? null : `${OFFERS_PATH}?nftType=${ref.nftType}&tokenId=${ref.tokenId}`;
  return { rows, makeAction, back };
}
