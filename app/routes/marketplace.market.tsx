import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FilterChips } from "~/components/market/filter-chips";
import { FilterForm } from "~/components/market/filter-form";
import { FilterNotices, MarketProblem } from "~/components/market/filter-notices";
import { ItemGrid } from "~/components/market/item-card";
import { Pagination, ResultCount } from "~/components/market/pagination";
import { TypeLinks } from "~/components/market/type-links";
import { MarketPage } from "~/components/market-page";
import { MARKET_PATH, NFT_TYPE_LABELS } from "~/domain/filters/shared";
import { marketHref, parseMarketFilter, serializeMarketFilter, toMarketQuery, withPage, withType } from "~/domain/filters/market";
import type { ItemCardModel } from "~/domain/market-views";
import { backendProblem, publicApis } from "~/services/apis.server";
import { cardView } from "~/services/market-views.server";
import { canonicalView } from "./marketplace.shared.server";

/**
 * A visitor's page (no cookie) is cached by its URL and the market's page generation (server/page-cache.ts, server.ts):
 * what this route renders for a visitor may depend on nothing else, and a page that sets a cookie is never kept.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { filter, notices: parseNotices } = parseMarketFilter(new URL(request.url).searchParams);
  const search = serializeMarketFilter(filter);
  const { notices, headers } = await canonicalView(request, { path: MARKET_PATH, canonical: search, parseNotices });
  const here = marketHref(filter);
  try {
    // The market is public: no token, so an expired session never gets in the way of browsing.
    const page = await publicApis().market.tradingMarket(toMarketQuery(filter));
    return json(
      {
        search,
        notices,
        items: page.records.map((record) => cardView(record, here)),
        info: { page: filter.page, pageSize: filter.pageSize, total: page.total, capped: page.totalCapped },
        problem: null,
      },
      { headers },
    );
  } catch (error) {
    const problem = backendProblem(error);
    const none: ItemCardModel[] = [];
    return json(
      {
        search,
        notices,
        items: none,
        info: { page: filter.page, pageSize: filter.pageSize, total: 0, capped: false },
        problem: problem.message,
      },
      { status: problem.status, headers },
    );
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const nftType = data ? parseMarketFilter(new URLSearchParams(data.search)).filter.nftType : undefined;
  return [{ title: `${nftType === undefined ? "Market" : `${NFT_TYPE_LABELS[nftType]} · Market`} | Spark Era` }];
};

export default function Market() {
  const { search, notices, items, info, problem } = useLoaderData<typeof loader>();
  // The filter travels as its canonical text (it holds bigint wei); the codec is pure, so the view reads it back.
  const { filter } = parseMarketFilter(new URLSearchParams(search));
  return (
    <MarketPage title="Market" intro="Filter by type, camp, rarity, level and price. Every view is a link you can bookmark.">
      <FilterNotices notices={notices} />
      <TypeLinks label="Item types" current={filter.nftType} hrefFor={(nftType) => marketHref(withType(filter, nftType))} />
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        {/* On a phone the filters fold away so the results come first; from lg up they are always shown. */}
        <details className="filters-fold card self-start">
          <summary className="section-title cursor-pointer lg:hidden">Filters</summary>
          <h2 className="section-title mb-3 hidden lg:block">Filters</h2>
          <FilterForm key={search} filter={filter} />
        </details>
        <section aria-labelledby="results-title" className="flex flex-col gap-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="results-title" className="section-title">
              Results
            </h2>
            <ResultCount info={info} />
          </div>
          <FilterChips filter={filter} />
          <MarketProblem message={problem} />
          {items.length > 0 ? (
            <ItemGrid items={items} label="Items on sale" />
          ) : (
            !problem && (
              <div className="card text-center">
                <p className="text-white">
                  {info.page > 1 && info.total > 0 ? "There are no items on this page." : "No items on sale match these filters."}
                </p>
                <p className="muted mt-2 text-sm">
                  {info.page > 1 && info.total > 0 ? (
                    <Link to={marketHref(withPage(filter, 1))}>Back to the first page</Link>
                  ) : (
                    <Link to={MARKET_PATH}>Show every item on sale</Link>
                  )}
                </p>
              </div>
            )
          )}
          <Pagination info={info} hrefFor={(page) => marketHref(withPage(filter, page))} />
        </section>
      </div>
    </MarketPage>
  );
}
