import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { CancelAllForm } from "~/features/market/cancel-all-form";
import { FilterNotices, MarketProblem } from "~/features/market/filter-notices";
import { cardMoveFooter } from "~/features/market/card-move";
import { ItemGrid } from "~/features/market/item-card";
import { Pagination, ResultCount } from "~/features/market/pagination";
import { TypeLinks } from "~/features/market/type-links";
import { MarketPage } from "~/features/market/market-page";
import { PillNav, type PillNavLook } from "~/components/pill-nav";
import { LoginPrompt } from "~/components/page";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { STORAGE_PATH } from "~/features/market/filters/paths";
import { STORAGE_TABS, type StorageTab } from "~/features/market/filters/paths";
import { loaderCacheControl, storagePage, storagePost } from "~/routes/marketplace.storage/route.server";

const ReceivedOffersSection = lazy(() => import("~/features/offers/received-offers-section"));

const EMPTY: Record<StorageTab, string> = {
  items: "Your wallet holds no items of this kind yet.",
  selling: "You are not selling anything of this kind.",
  favorites: "You have no favorites of this kind yet. Open an item and add it to your favorites.",
};

export const loader = storagePage;

export const action = storagePost;

export const headers = loaderCacheControl;

export const meta: MetaFunction = () => [{ title: "Storage | Spark Era" }];

const TAB_LOOK: PillNavLook = {
  list: "flex gap-1 border-b border-space-800",
  link: "-mb-px inline-block border-b-2 px-4 py-2 text-sm font-semibold no-underline",
  current: "border-spark-400 text-white",
  other: "border-transparent text-slate-300 hover:text-white",
};

function Tabs({ current, hrefs }: { current: StorageTab; hrefs: Record<StorageTab, string> }) {
  const items = (Object.keys(STORAGE_TABS) as StorageTab[]).map((tab) => ({
    href: hrefs[tab],
    label: STORAGE_TABS[tab],
    current: current === tab,
  }));
  return <PillNav label="Storage tabs" look={TAB_LOOK} items={items} />;
}

export default function Storage() {
  const data = useLoaderData<typeof loader>();
  return (
    <MarketPage title="Storage" intro="Your items, what you are selling, and your favorites.">
      <FilterNotices notices={data.notices} />
      {data.state === "visitor" && (
        <section className="card">
          <LoginPrompt href={data.loginHref} what="see your items, sales and favorites" />
        </section>
      )}
      {data.state === "no-wallet" && (
        <section className="card flex flex-wrap items-center justify-between gap-3">
          <p className="text-white">{BIND_WALLET_MESSAGE} to see your items, sales and favorites.</p>
          <Link to={`/login?act=connect&redirect=${encodeURIComponent(STORAGE_PATH)}`} className="btn-primary">
            Bind now
          </Link>
        </section>
      )}
      {data.state === "wallet" && (
        <>
          <Tabs current={data.tab} hrefs={data.tabHrefs} />
          <p className="text-sm text-slate-300">
            Wallet <span className="break-all font-mono text-slate-100">{data.wallet}</span>
          </p>
          <TypeLinks label="Item types" links={data.typeLinks} />
          <section aria-labelledby="storage-results" className="flex flex-col gap-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="storage-results" className="section-title">
                {STORAGE_TABS[data.tab]}
              </h2>
              {data.info && <ResultCount info={data.info} />}
            </div>
            <MarketProblem message={data.problem} />
            {data.items.length > 0 ? (
              <ItemGrid items={data.items} label={STORAGE_TABS[data.tab]} footer={cardMoveFooter} />
            ) : (
              !data.problem && (
                <div className="card text-center">
                  <p className="text-white">{EMPTY[data.tab]}</p>
                  <p className="muted mt-2 text-sm">
                    <Link to="/marketplace/market">Browse the market</Link>
                  </p>
                </div>
              )
            )}
            {data.info && <Pagination info={data.info} hrefs={data.pageHrefs} />}
            {data.cancelAll && <CancelAllForm offer={data.cancelAll} />}
          </section>
          {data.offers && (
            <Suspense fallback={null}>
              <ReceivedOffersSection offers={data.offers} back={data.search ? `${STORAGE_PATH}?${data.search}` : STORAGE_PATH} />
            </Suspense>
          )}
        </>
      )}
    </MarketPage>
  );
}
