import { type MetaFunction } from "@remix-run/node";
import { MarketPage } from "~/components/market-page";
import { Section } from "~/components/page";

export const meta: MetaFunction = () => [{ title: "Storage | Spark Era" }];

export default function Storage() {
  return (
    <MarketPage title="Storage" intro="Your items, what you are selling, and your favorites.">
      <Section title="My items" id="items">
        <p className="muted">Items held by your account’s wallet.</p>
      </Section>
    </MarketPage>
  );
}
