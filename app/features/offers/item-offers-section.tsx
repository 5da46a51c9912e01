/**
 * The item page's "Offers" section, for a signed-in viewer: the route loads this module lazily, so a visitor's page
 * ships none of it. The holder accepts an offer; anyone else makes one.
 */
import { Section } from "~/components/page";
import type { ItemOffersView } from "./item-offers.server";
import { OfferForm } from "./offer-form";
import { OffersTable } from "./offers-table";

export default function ItemOffersSection({ offers }: { offers: ItemOffersView }) {
  return (
    <Section title="Offers" id="offers">
      {offers.rows.length ? (
        <OffersTable rows={offers.rows} caption="Offers on this item" back={offers.back} />
      ) : (
        <p className="muted">No open offers on this item.</p>
      )}
      {offers.makeAction && (
        <div className="mt-4">
          <OfferForm title="Make an offer" action={offers.makeAction} back={offers.back} lastResult={null} failed={null} />
        </div>
      )}
    </Section>
  );
}
