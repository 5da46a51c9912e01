import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CancelAllForm } from "~/components/market/cancel-all-form";
import { FilterNotices, MarketProblem } from "~/components/market/filter-notices";
import { ItemGrid } from "~/components/market/item-card";
import { Pagination, ResultCount } from "~/components/market/pagination";
import { TypeLinks } from "~/components/market/type-links";
import { MarketPage } from "~/components/market-page";
import { LoginPrompt } from "~/components/page";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import {
  STORAGE_PATH,
  STORAGE_TABS,
  parseStorageFilter,
  serializeStorageFilter,
  storageHref,
  toStorageQuery,
  type StorageFilter,
  type StorageTab,
} from "~/domain/filters";
import { loginHref } from "~/domain/safe-redirect";
import { backendClients } from "~/services/backends.server";
import { marketApi } from "~/services/market.server";
import { backendProblem, canonicalView, cardView, viewer } from "./marketplace.shared.server";
import { cancelAllAction, cancelAllOffer, type CancelAllOffer } from "./marketplace.storage.server";

const ENDPOINT = { items: "myStorage", selling: "selling", favorites: "myFavorite" } as const satisfies Record<StorageTab, string>;
const EMPTY: Record<StorageTab, string> = {
  items: "Your wallet holds no items of this kind yet.",
  selling: "You are not selling anything of this kind.",
  favorites: "You have no favorites of this kind yet. Open an item and add it to your favorites.",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const { filter, notices: parseNotices } = parseStorageFilter(new URL(request.url).searchParams);
  const search = serializeStorageFilter(filter);
  const { notices, headers } = await canonicalView(request, { path: STORAGE_PATH, canonical: search, parseNotices });
  const here = storageHref(filter);
  const base = {
    search,
    notices,
    wallet: null as string | null,
    items: [] as ReturnType<typeof cardView>[],
    info: null,
    problem: null as string | null,
    cancelAll: null as CancelAllOffer | null,
  };
  const { token, user, wallet } = await viewer(request);
  if (!user) return json({ ...base, state: "visitor" as const, loginHref: loginHref(here) }, { headers });
  if (!wallet) return json({ ...base, state: "no-wallet" as const, loginHref: null }, { headers });
  try {
    const page = await marketApi(backendClients(null).market)[ENDPOINT[filter.tab]](toStorageQuery(filter, wallet));
    return json(
      {
        ...base,
        state: "wallet" as const,
        loginHref: null,
        wallet,
        items: page.records.map((record) => cardView(record, here)),
        info: { page: filter.page, pageSize: page.pageSize, total: page.total, capped: page.totalCapped },
        cancelAll: filter.tab === "selling" && page.total > 0 ? await cancelAllOffer(token, user) : null,
      },
      { headers },
    );
  } catch (error) {
    const problem = backendProblem(error);
    return json({ ...base, state: "wallet" as const, loginHref: null, wallet, problem: problem.message }, { status: problem.status, headers });
  }
}

export function action({ request }: ActionFunctionArgs) {
  return cancelAllAction(request);
}

export const meta: MetaFunction = () => [{ title: "Storage | Spark Era" }];

function Tabs({ filter }: { filter: StorageFilter }) {
  return (
    <nav aria-label="Storage tabs">
      <ul className="flex gap-1 border-b border-space-800">
        {(Object.keys(STORAGE_TABS) as StorageTab[]).map((tab) => (
          <li key={tab}>
            <Link
              to={storageHref({ tab, nftType: filter.nftType, page: 1 })}
              aria-current={filter.tab === tab ? "page" : undefined}
              className={`-mb-px inline-block border-b-2 px-4 py-2 text-sm font-semibold no-underline ${
                filter.tab === tab ? "border-spark-400 text-white" : "border-transparent text-slate-300 hover:text-white"
              }`}
            >
              {STORAGE_TABS[tab]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default function Storage() {
  const data = useLoaderData<typeof loader>();
  const { filter } = parseStorageFilter(new URLSearchParams(data.search));
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
          <Tabs filter={filter} />
          <p className="text-sm text-slate-300">
            Wallet <span className="break-all font-mono text-slate-100">{data.wallet}</span>
          </p>
          <TypeLinks label="Item types" current={filter.nftType} hrefFor={(nftType) => storageHref({ ...filter, nftType, page: 1 })} />
          <section aria-labelledby="storage-results" className="flex flex-col gap-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="storage-results" className="section-title">
                {STORAGE_TABS[filter.tab]}
              </h2>
              {data.info && <ResultCount info={data.info} />}
            </div>
            <MarketProblem message={data.problem} />
            {data.items.length > 0 ? (
              <ItemGrid items={data.items} label={STORAGE_TABS[filter.tab]} />
            ) : (
              !data.problem && (
                <div className="card text-center">
                  <p className="text-white">{EMPTY[filter.tab]}</p>
                  <p className="muted mt-2 text-sm">
                    <Link to="/marketplace/market">Browse the market</Link>
                  </p>
                </div>
              )
            )}
            {data.info && <Pagination info={data.info} hrefFor={(page) => storageHref({ ...filter, page })} />}
            {data.cancelAll && <CancelAllForm offer={data.cancelAll} />}
          </section>
        </>
      )}
    </MarketPage>
  );
}
