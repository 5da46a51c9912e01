/** Storage's "Offers on your items" (issue 30): open offers the wallet can accept, each for one of its items. */
import { detailHref, typeLabel } from "~/features/market/market-views.server";
import type { Apis } from "~/services/apis.server";
import type { OfferRowView } from "./offer-views";
import { collectionText, offerRow } from "./offer-views.server";

export async function receivedOffersView(offers: Apis["offers"], wallet: string, back: string): Promise<OfferRowView[]> {
  const received = await offers.received();
  return received.map(({ offer, item }) =>
    offerRow(offer, {
      viewer: wallet,
      what: `${item.name || `${typeLabel(item.nftType)} #${item.tokenId}`}${offer.kind === "collection" ? ` (${collectionText(offer)})` : ""}`,
      href: detailHref(item, back),
      accept: item,
    }),
  );
}
