import { type MetaFunction } from "@remix-run/node";
import { MarketPage } from "~/components/market-page";
import { Section } from "~/components/page";

export const meta: MetaFunction = () => [{ title: "Item detail | Spark Era" }];

export default function MarketplaceDetail() {
  return (
    <MarketPage title="Item detail">
      <Section title="Attributes" id="attributes">
        <p className="muted">Every attribute of the item, its owner, price and status.</p>
      </Section>
      <Section title="Trade" id="trade">
        <p className="muted">Sell, cancel the sale, buy or transfer.</p>
      </Section>
    </MarketPage>
  );
}
