/**
 * The item page's "Offers" section, for a signed-in viewer: the route loads this module lazily, so a visitor's page
 * ships none of it. The holder accepts an offer; anyone else follows the link to the offer form (the offers page,
 * where a collection offer is made too), so the item page carries no form code of its own.
 */
import { Section } from "~/components/page";
import type { ItemOffersView } from "./item-offers.server";
import { OffersTable } from "./offers-table";
import { OfferPages } from "./offer-pages";

export default function ItemOffersSection({ offers }: { offers: ItemOffersView }) {
  return (
    <Section title="Offers" id="offers">
      <OffersTable
        rows={offers.rows}
        caption="Offers on this item"
        empty="No open offers on this item."
        back={offers.back}
        signer={offers.signer}
      />
      {offers.pages && <OfferPages pages={offers.pages} />}
      {offers.makeHref && (
        <a href={offers.makeHref} className="btn-primary mt-4 inline-block">
          Make an offer
        </a>
      )}
    </Section>
  );
}
