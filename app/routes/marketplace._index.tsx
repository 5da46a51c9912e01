import { type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { MarketPage } from "~/components/market-page";
import { Section } from "~/components/page";

export const meta: MetaFunction = () => [{ title: "Marketplace | Spark Era" }];

const ENTRY_POINTS = [
  { nftType: 0, label: "Hero cards" },
  { nftType: 4, label: "Spaceships" },
  { nftType: 7, label: "Equipment" },
  { nftType: 8, label: "Materials" },
  { nftType: 5, label: "Pet eggs" },
  { nftType: 6, label: "Loot boxes" },
];

export default function MarketplaceLanding() {
  return (
    <MarketPage title="Marketplace" intro="Buy and sell the game’s heroes, spaceships, equipment, materials, pet eggs and loot boxes.">
      <Section title="Browse by type" id="types">
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {ENTRY_POINTS.map((entry) => (
            <li key={entry.nftType}>
              <Link to={`/marketplace/market?nftType=${entry.nftType}`} className="btn-secondary w-full">
                {entry.label}
              </Link>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Top NFTs" id="top">
        <p className="muted">The most traded items of the last days.</p>
      </Section>
      <Section title="Activity" id="activity">
        <p className="muted">The latest sales on the marketplace.</p>
      </Section>
    </MarketPage>
  );
}
