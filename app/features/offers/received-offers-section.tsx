/** Storage's "Offers on your items": loaded lazily by the route, so it costs the page nothing until it is shown. */
import { Section } from "~/components/page";
import type { OfferRowView } from "./offer-views";
import { OffersTable } from "./offers-table";

export default function ReceivedOffersSection({ rows, back }: { rows: OfferRowView[]; back: string }) {
  return (
    <Section title="Offers on your items" id="offers-received">
      {rows.length ? (
        <OffersTable rows={rows} caption="Offers on your items" back={back} />
      ) : (
        <p className="muted">No open offers on your items.</p>
      )}
      <p className="mt-3 text-sm">
        <a href="/marketplace/offers">Offers you made</a>
      </p>
    </Section>
  );
}
