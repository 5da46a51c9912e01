import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import GeneralErrorBoundary from "~/components/error-boundary-view";
import { Page } from "~/components/page";
import { FilterChips } from "~/features/market/filter-chips";
import { FilterForm } from "~/features/market/filter-form";
import { FilterNotices, MarketProblem } from "~/features/market/filter-notices";
import { ItemGrid } from "~/features/market/item-card";
import type { ItemCardModel, PageInfo } from "~/features/market/market-views";
import { Pagination, ResultCount } from "~/features/market/pagination";
import { TypeLinks } from "~/features/market/type-links";
import { playerPage } from "~/routes/player.$address/route.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => playerPage(request, params.address);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.name ?? "Player"} · Player | Spark Era` }];

function Listing({
  id,
  title,
  list,
  empty,
}: {
  id: string;
  title: string;
  list: { items: ItemCardModel[]; info: PageInfo } | null;
  empty: string;
}) {
  if (!list) return null;
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="section-title">
          {title}
        </h2>
        <ResultCount info={list.info} />
      </div>
      {list.items.length > 0 ? <ItemGrid items={list.items} label={title} /> : <p className="card muted text-center">{empty}</p>}
    </section>
  );
}

export default function Player() {
  const { search, name, wallet, path, notices, onSale, onChain, info, problem, form, chips, typeHrefs, pageHrefs } =
    useLoaderData<typeof loader>();
  return (
    <Page
      title={name}
      intro={
        <>
          A Spark Era player. Wallet <span className="break-all font-mono text-sm text-slate-200">{wallet}</span>
        </>
      }
    >
      <FilterNotices notices={notices} />
      <TypeLinks label="Item types" current={form.nftType} hrefs={typeHrefs} />
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        {/* As on the market: on a phone the filters fold away so the items come first. */}
        <details className="filters-fold card self-start">
          <summary className="section-title cursor-pointer lg:hidden">Filters</summary>
          <h2 className="section-title mb-3 hidden lg:block">Filters</h2>
          <FilterForm key={search} filter={form} />
        </details>
        <div className="flex flex-col gap-6">
          <FilterChips chips={chips} clearHref={path} />
          <MarketProblem message={problem} />
          <Listing id="on-sale" title="On sale" list={onSale} empty="No items of this player on sale match these filters." />
          <Listing id="on-chain" title="On chain" list={onChain} empty="No items this player holds on chain match these filters." />
          <Pagination info={info} hrefs={pageHrefs} />
        </div>
      </div>
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Page title="Player not found">
        <p className="muted">
          {typeof error.data === "string" ? error.data : "We can’t find this player."} Browse the{" "}
          <Link to="/marketplace/market">market</Link> instead.
        </p>
      </Page>
    );
  }
  return <GeneralErrorBoundary />;
}
