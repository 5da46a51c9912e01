/** Storage's "Offers on your items": loaded lazily by the route, so it costs the page nothing until it is shown. */
import type { ReceivedOffersView } from "./received-offers.server";
import { OffersSection } from "./offer-pages";

export default function ReceivedOffersSection({ offers, back }: { offers: ReceivedOffersView; back: string }) {
  return (
    <OffersSection
      title="Offers on your items"
      id="offers-received"
      caption="Offers on your items"
      empty="No open offers on your items."
      offers={offers}
      back={back}
    >
      <p className="mt-3 text-sm">
        <a href="/marketplace/offers">Offers you made</a>
      </p>
    </OffersSection>
  );
}
