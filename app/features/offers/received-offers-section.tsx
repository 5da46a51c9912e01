/** Storage's "Offers on your items": loaded lazily by the route, so it costs the page nothing until it is shown. */
import { Section } from "~/components/page";
import type { ReceivedOffersView } from "./received-offers.server";
import { OffersTable } from "./offers-table";
import { OfferPages } from "./offer-pages";

export default function ReceivedOffersSection({ offers, back }: { offers: ReceivedOffersView; back: string }) {
  return (
    <Section title="Offers on your items" id="offers-received">
      <OffersTable
        rows={offers.rows}
        caption="Offers on your items"
        empty="No open offers on your items."
        back={back}
        signer={offers.signer}
      />
      {offers.pages && <OfferPages pages={offers.pages} />}
      <p className="mt-3 text-sm">
        <a href="/marketplace/offers">Offers you made</a>
      </p>
    </Section>
  );
}
