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
import { OFFERS_PATH } from "./offer-views";
import { offerOnItemPage, offerRow } from "./offer-views.server";
import { OfferCells } from "./offers-table";

/** The offers a visitor sees: active ones not yet expired at `now`. */
export function openOffers(offers: OfferRecord[], now = Date.now()): OfferRecord[] {
  return offers.filter((offer) => offer.status === "active" && offer.expiry * 1000 > now);
}

/** When the first of these offers expires (epoch ms), for the page cache; null without offers. */
export function visitorOffersUntil(offers: OfferRecord[]): number | null {
  return offers.length ? Math.min(...offers.map((offer) => offer.expiry * 1000)) : null;
}

function VisitorOffers({ offers, item, total }: { offers: OfferRecord[]; item: TokenRef; total: number }) {
  // The signed-in table's row model and cells, with no viewer: nothing of theirs, nothing to press.
  const rows = offers.map((offer) => offerRow(offer, { viewer: null, what: offerOnItemPage(offer), href: null }));
  return (
    <Section title="Offers" id="offers">
      {rows.length ? (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Offers on this item</caption>
            <TableHead columns={["Offer", "Price"]} />
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-space-800 align-top text-white">
                  <OfferCells row={row} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No open offers on this item.</p>
      )}
      {total > offers.length && rows.length > 0 && (
        <p className="muted mt-2 text-sm">
          The best {rows.length} of {total} open offers. Log in to see them all.
        </p>
      )}
      <a href={`${OFFERS_PATH}?nftType=${item.nftType}&tokenId=${item.tokenId}`} className="btn-primary mt-4 inline-block">
        Make an offer
      </a>
    </Section>
  );
}

// `item`, not `ref`: React keeps a `ref` prop to itself.
export const visitorOffersHtml = (offers: OfferRecord[], item: TokenRef, total = offers.length) =>
  serverHtml(<VisitorOffers offers={offers} item={item} total={total} />);
