import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FilterChips } from "~/features/market/filter-chips";
import { FilterForm } from "~/features/market/filter-form";
import { FilterNotices, MarketProblem } from "~/features/market/filter-notices";
import { Pagination, ResultCount } from "~/features/market/pagination";
import { TypeLinks } from "~/features/market/type-links";
import { MarketPage } from "~/features/market/market-page";
import { MARKET_PATH } from "~/features/market/filters/paths";
import { loaderCacheControl, marketPage } from "~/routes/marketplace.market/route.server";
import { ServerHtml } from "~/components/server-html";
import { WatchSearch } from "~/features/watches/watch-form";

export const loader = ({ request }: LoaderFunctionArgs) => marketPage(request);
export const headers = loaderCacheControl;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Market"} | Spark Era` }];

export default function Market() {
  const { search, notices, grid, info, problem, form, chips, typeLinks, pageHrefs, numbers, watch, offerHref } =
    useLoaderData<typeof loader>();
  return (
    <MarketPage title="Market" intro="Filter by type, camp, rarity, level and price. Every view is a link you can bookmark.">
      <FilterNotices notices={notices} />
      <TypeLinks label="Item types" links={typeLinks} />
      <ServerHtml markup={numbers.top} />
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        {/* On a phone the filters fold away so the results come first; from lg up they are always shown. */}
        <details className="filters-fold card self-start">
          <summary className="section-title cursor-pointer lg:hidden">Filters</summary>
          <h2 className="section-title mb-3 hidden lg:block">Filters</h2>
          <FilterForm key={search} filter={form} />
        </details>
        <section aria-labelledby="results-title" className="flex flex-col gap-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="results-title" className="section-title">
              Results
            </h2>
            <ResultCount info={info} />
          </div>
          <FilterChips chips={chips} />
          <WatchSearch control={watch} />
          {offerHref && (
            <Link to={offerHref} className="text-sm">
              Make an offer on any item of this view
            </Link>
          )}
          <MarketProblem message={problem} />
          {grid ? (
            // The cards (decision 0037): server markup, whose links ServerHtml hands to the router.
            <ServerHtml markup={grid} />
          ) : (
            !problem && (
              <div className="card text-center">
                <p className="text-white">
                  {info.page > 1 && info.total > 0 ? "There are no items on this page." : "No items on sale match these filters."}
                </p>
                <p className="muted mt-2 text-sm">
                  {info.page > 1 && info.total > 0 ? (
                    <Link to={pageHrefs[1]}>Back to the first page</Link>
                  ) : (
                    <Link to={MARKET_PATH}>Show every item on sale</Link>
                  )}
                </p>
              </div>
            )
          )}
          <Pagination info={info} hrefs={pageHrefs} />
          <ServerHtml markup={numbers.history} />
        </section>
      </div>
    </MarketPage>
  );
}
