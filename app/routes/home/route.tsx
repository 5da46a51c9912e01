import { json, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { StoreLinks } from "~/components/store-links";
import type { RootLoader } from "~/root";
import { readHeadlinePrices } from "~/services/chain.server";

export const meta: MetaFunction = () => [{ title: "Home | Spark Era" }];

const FEATURES = [
  {
    to: "/marketplace/market",
    title: "Marketplace",
    text: "Trade hero cards, spaceships, equipment, materials and pet eggs with other players.",
  },
  { to: "/loyalty", title: "Loyalty Program", text: "Stake FIRE in a pool and earn loot boxes as rewards." },
  { to: "/spaceship/storehouse", title: "Spaceships", text: "Configure, upgrade and send your fleet exploring." },
  { to: "/invite", title: "Referral", text: "Invite friends with your link and earn rebates on their purchases." },
];

/** Headline prices only, as text: /home must stay light, so the catalogue code stays on /game and the box pages. */
export async function loader() {
  return json(await readHeadlinePrices());
}

export default function Home() {
  const root = useRouteLoaderData<RootLoader>("root");
  const shop = useLoaderData<typeof loader>();
  return (
    <div>
      <section className="border-b border-space-800 bg-gradient-to-b from-space-800 to-space-950">
        <div className="mx-auto flex max-w-6xl flex-col gap-10 px-4 py-14 sm:px-5 sm:py-20 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-spark-300">Spark Era</p>
            <h1 className="mt-3 max-w-2xl text-4xl font-black tracking-tight text-white sm:text-5xl">Join the metaverse</h1>
            <p className="mt-4 max-w-xl text-lg text-slate-200">
              Command heroes and starships, open loot boxes and trade what you find on the Spark Era marketplace.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/game" className="btn-primary">
                Play Spark Era
              </Link>
              <Link to="/marketplace" className="btn-secondary">
                Visit the marketplace
              </Link>
            </div>
          </div>
          {/* Decorative, so alt=""; the likely LCP element, so not lazy. React 18 warns on fetchPriority, so it is left out. */}
          <img
            src="/images/art/hero.svg"
            width={640}
            height={360}
            alt=""
            className="h-auto w-full max-w-full rounded-2xl border border-space-700 sm:max-w-xl lg:w-[28rem] xl:w-[32rem]"
          />
        </div>
      </section>
      <div className="mx-auto flex max-w-6xl flex-col gap-10 px-4 py-10 sm:px-5">
        <section aria-labelledby="lootboxes-title">
          <h2 id="lootboxes-title" className="section-title">
            Loot boxes
          </h2>
          <p className="muted mt-1">Buy loot boxes with USDT, QUARK or BNB, then open them one to ten at a time, or all at once.</p>
          {!shop.available && (
            <p role="status" className="mt-3 text-sm text-amber-200">
              Prices come from the chain, which is not answering right now.
            </p>
          )}
          <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {shop.boxes.map((box) => (
              <li key={box.typeBox} className="card flex items-center gap-3" data-testid={`box-${box.typeBox}`}>
                <img
                  src={`/images/art/box-${box.typeBox}.svg`}
                  width={64}
                  height={64}
                  alt=""
                  loading="lazy"
                  className="h-auto max-w-full shrink-0"
                />
                <div className="flex-1">
                  <h3 className="font-semibold text-white">
                    <Link to={`/lootbox/${box.typeBox}`}>{box.title}</Link>
                  </h3>
                  <p className="text-sm text-slate-300">{box.rank}</p>
                </div>
                <p className="text-right text-sm font-semibold text-white">{box.price ?? "—"}</p>
              </li>
            ))}
          </ul>
          <p className="mt-3">
            <Link to="/game#lootboxes">See every loot box, its limits and your boxes</Link>
          </p>
        </section>
        <section aria-labelledby="explore-title">
          <h2 id="explore-title" className="section-title">
            Explore
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {FEATURES.map((feature) => (
              <li key={feature.to} className="card">
                <h3 className="font-semibold text-white">
                  <Link to={feature.to}>{feature.title}</Link>
                </h3>
                <p className="muted mt-2 text-sm">{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>
        {root && (
          <section aria-labelledby="download-title">
            <h2 id="download-title" className="section-title">
              Download the game
            </h2>
            <StoreLinks stores={root.env.stores} />
          </section>
        )}
      </div>
    </div>
  );
}
