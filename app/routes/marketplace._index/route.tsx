import { json, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { MarketProblem } from "~/features/market/filter-notices";
import { TradeTable } from "~/features/market/trade-table";
import { MarketPage } from "~/features/market/market-page";
import { Section } from "~/components/page";
import type { TradeRowModel } from "~/features/market/market-views";
import { backendProblem, publicApis } from "~/services/apis.server";
import { tradeView } from "~/features/market/market-views.server";
import { landingLinks } from "~/routes/marketplace._index/route.server";

export const meta: MetaFunction = () => [{ title: "Marketplace | Spark Era" }];

export async function loader() {
  const api = publicApis().market;
  const links = landingLinks();
  try {
    const [top, activity] = await Promise.all([
      // Prices only compare within one currency: the top list is of FIRE sales, the game's own token.
      api.topNft({ period: "7d", currency: "FIRE", pageNumber: 1, pageSize: 5 }),
      api.activity({ pageNumber: 1, pageSize: 8 }),
    ]);
    return json({
      links,
      problem: null,
      top: top.records.map((trade, i) => tradeView(trade, i, "/marketplace")),
      activity: activity.records.map((trade, i) => tradeView(trade, i, "/marketplace")),
    });
  } catch (error) {
    const problem = backendProblem(error);
    const none: TradeRowModel[] = [];
    return json({ links, problem: problem.message, top: none, activity: none }, { status: problem.status });
  }
}

export default function MarketplaceLanding() {
  const { links, problem, top, activity } = useLoaderData<typeof loader>();
  return (
    <MarketPage title="Marketplace" intro="Buy and sell the game’s heroes, spaceships, equipment, materials, pet eggs and loot boxes.">
      <Section title="Browse by type" id="types">
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {links.types.map((type) => (
            <li key={type.code}>
              <Link to={type.href} className="btn-secondary w-full">
                {type.label}
              </Link>
            </li>
          ))}
          <li>
            <Link to="/marketplace/market" className="btn-primary w-full">
              Everything on sale
            </Link>
          </li>
        </ul>
      </Section>
      <MarketProblem message={problem} />
      <Section title="Top NFTs" id="top">
        <p className="muted mb-3 text-sm">The highest sales in FIRE of the last 7 days.</p>
        <TradeTable trades={top} caption="Top NFTs of the last 7 days" empty="No sales in the last 7 days." />
      </Section>
      <Section title="Activity" id="activity">
        <p className="muted mb-3 text-sm">The latest sales on the marketplace.</p>
        <TradeTable trades={activity} caption="Latest sales" empty="No sales yet." />
        <p className="mt-3 text-sm">
          <Link to={links.statistics}>All statistics</Link>
        </p>
      </Section>
    </MarketPage>
  );
}
