/** Storage's "Offers on your items" (issue 30): open offers the wallet can accept, each for one of its items. */
import { detailHref, typeLabel } from "~/features/market/market-views.server";
import type { Apis } from "~/services/apis.server";
import type { UserInfo } from "~core/api/sso";
import type { OfferPagesView, OfferRowView } from "./offer-views";
import { collectionText, offerPages, offerRow, withOffersPage } from "./offer-views.server";
import type { OfferSigner } from "./offer-signing";
import { offerSigner } from "./offer-signer.server";

export interface ReceivedOffersView {
  rows: OfferRowView[];
  /** Links to the other pages when more offers are open than a page holds; null when one page shows them all. */
  pages: OfferPagesView | null;
  signer: OfferSigner | null;
}

export async function receivedOffersView(
  api: Pick<Apis, "orders" | "offers">,
  user: UserInfo,
  wallet: string,
  back: string,
  pageNumber = 1,
): Promise<ReceivedOffersView> {
  const [received, signer] = await Promise.all([api.offers.received({ pageNumber }), offerSigner(api, user)]);
  const pages = offerPages(received, (n) => withOffersPage(back, n, "offers-received-title"));
  const rows = received.records.map(({ offer, item }) =>
    offerRow(offer, {
      viewer: wallet,
      what: `${item.name || `${typeLabel(item.nftType)} #${item.tokenId}`}${offer.kind === "collection" ? ` (${collectionText(offer)})` : ""}`,
      href: detailHref(item, back),
      accept: item,
    }),
  );
  return { rows, pages, signer };
}
