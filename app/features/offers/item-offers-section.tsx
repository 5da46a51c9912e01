/**
 * The item page's "Offers" section, for a signed-in viewer: the route loads this module lazily, so a visitor's page
 * ships none of it. The holder accepts an offer; anyone else follows the link to the offer form (the offers page,
 * where a collection offer is made too), so the item page carries no form code of its own.
 */
import type { ItemOffersView } from "./item-offers.server";
import { OffersSection } from "./offer-pages";

export default function ItemOffersSection({ offers }: { offers: ItemOffersView }) {
  return (
    <OffersSection
      title="Offers"
      id="offers"
      caption="Offers on this item"
      empty="No open offers on this item."
      offers={offers}
      back={offers.back}
    >
      {offers.makeHref && (
        <a href={offers.makeHref} className="btn-primary mt-4 inline-block">
          Make an offer
        </a>
      )}
    </OffersSection>
  );
}
