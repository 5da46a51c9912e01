/**
 * The item page's offers for a visitor, as server markup (decision 0025): the open offers, with no accept, no cancel
 * and no word on whether the buyer can still pay (that follows balances, which a cached page does not). A visitor's
 * page is cached (server/page-cache.ts): an offer made, accepted or cancelled moves the page generation
 * (market_028), and the page is rendered afresh when its first offer expires (visitorOffersUntil).
 */
import { Section } from "~/components/page";
import { TableHead } from "~/components/table-head";
import { serverHtml } from "~/services/server-html.server";
import type { TokenRef } from "~core/api/market";
import type { OfferRecord } from "~core/api/offers";
import { formatPrice } from "~core/money";
import { shortAddress } from "~core/address";
import { OFFERS_PATH } from "./offer-views";
import { collectionText, untilText } from "./offer-views.server";

/** The offers a visitor sees: active ones not yet expired at `now`. */
export function openOffers(offers: OfferRecord[], now = Date.now()): OfferRecord[] {
  return offers.filter((offer) => offer.status === "active" && offer.expiry * 1000 > now);
}

/** When the first of these offers expires (epoch ms), for the page cache; null without offers. */
export function visitorOffersUntil(offers: OfferRecord[]): number | null {
  return offers.length ? Math.min(...offers.map((offer) => offer.expiry * 1000)) : null;
}

function VisitorOffers({ offers, item }: { offers: OfferRecord[]; item: TokenRef }) {
  return (
    <Section title="Offers" id="offers">
      {offers.length ? (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Offers on this item</caption>
            <TableHead columns={["Offer", "Price"]} />
            <tbody>
              {offers.map((offer) => (
                <tr key={offer.id} className="border-t border-space-800 align-top text-white">
                  <td className="py-2 pr-3">
                    {offer.kind === "item" ? "This item" : collectionText(offer)}
                    <span className="block text-xs text-slate-300">
                      by <span className="font-mono">{shortAddress(offer.buyerAddress)}</span>
                      {offer.venue === "chain" && " · from a wallet on chain"}
                    </span>
                  </td>
                  <td className="py-2">
                    <span className="break-all sm:whitespace-nowrap sm:break-normal">{formatPrice(offer.price, offer.currency)}</span>
                    <span className="block text-xs text-slate-300">until {untilText(offer.expiry)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No open offers on this item.</p>
      )}
      <a href={`${OFFERS_PATH}?nftType=${item.nftType}&tokenId=${item.tokenId}`} className="btn-primary mt-4 inline-block">
        Make an offer
      </a>
    </Section>
  );
}

// `item`, not `ref`: React keeps a `ref` prop to itself.
export const visitorOffersHtml = (offers: OfferRecord[], item: TokenRef) => serverHtml(<VisitorOffers offers={offers} item={item} />);
