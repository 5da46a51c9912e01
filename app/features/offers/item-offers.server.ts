/**
 * The item page's offers (issue 30), for a signed-in viewer only: a visitor's page is cached by its URL
 * (server/page-cache.ts), and offers change with balances and time, which the page generation does not follow.
 */
import type { Apis } from "~/services/apis.server";
import type { TokenRef } from "~core/api/market";
import type { UserInfo } from "~core/api/sso";
import { OFFERS_PATH, type OfferPagesView, type OfferRowView } from "./offer-views";
import { offerOnItemPage, offerPages, offerRow, withOffersPage } from "./offer-views.server";
import type { OfferSigner } from "./offer-signing";
import { offerSigner } from "./offer-signer.server";

export interface ItemOffersView {
  rows: OfferRowView[];
  /** Links to the other pages when the item has more offers than a page; null when one page shows them all. */
  pages: OfferPagesView | null;
  /** The offer form for this item (on the offers page); null for the holder, who accepts instead. */
  makeHref: string | null;
  back: string;
  signer: OfferSigner | null;
}

export async function itemOffersView(
  api: Pick<Apis, "orders" | "offers">,
  user: UserInfo | null,
  ref: TokenRef,
  holds: boolean,
  back: string,
  pageNumber = 1,
): Promise<ItemOffersView | null> {
  const [open, signer] = await Promise.all([api.offers.itemOffers(ref, { pageNumber }), offerSigner(api, user)]).catch(
    () => [null, null] as const,
  );
  if (!open) return null;
  const pages = offerPages(open, (n) => withOffersPage(back, n, "offers-title"));
  const rows = open.records.map((offer) =>
    offerRow(offer, {
      viewer: user?.WalletAddress || null,
      what: offerOnItemPage(offer),
      href: null,
      accept: holds ? ref : null,
    }),
  );
  const makeHref = holds ? null : `${OFFERS_PATH}?nftType=${ref.nftType}&tokenId=${ref.tokenId}`;
  return { rows, pages, makeHref, back, signer };
}
