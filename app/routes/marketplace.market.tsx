import { type MetaFunction } from "@remix-run/node";
import { MarketPage } from "~/components/market-page";
import { Section } from "~/components/page";

export const meta: MetaFunction = () => [{ title: "Market | Spark Era" }];

export default function Market() {
  return (
    <MarketPage title="Market" intro="Filter by type, camp, rarity, level and price. Every view is a link you can bookmark.">
      <Section title="Filters" id="filters">
        <p className="muted">Type, camp, rarity, identity, profession, level, attributes, price and sort.</p>
      </Section>
      <Section title="Results" id="results">
        <p className="muted">Items on sale matching your filters.</p>
      </Section>
    </MarketPage>
  );
}
