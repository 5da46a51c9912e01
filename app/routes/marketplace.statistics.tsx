import { type MetaFunction } from "@remix-run/node";
import { MarketPage } from "~/components/market-page";
import { Section } from "~/components/page";

export const meta: MetaFunction = () => [{ title: "Statistics | Spark Era" }];

export default function Statistics() {
  return (
    <MarketPage title="Statistics" intro="Top NFTs and recent activity, by type, camp, rarity, PSE, EGSE, spaceship kind and level.">
      <Section title="Top NFTs" id="top">
        <p className="muted">The items with the highest sales.</p>
      </Section>
      <Section title="Activity" id="activity">
        <p className="muted">Every recent sale with its price and time.</p>
      </Section>
    </MarketPage>
  );
}
