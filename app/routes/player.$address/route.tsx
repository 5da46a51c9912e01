import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import GeneralErrorBoundary from "~/components/error-boundary-view";
import { Page } from "~/components/page";
import { PillNav } from "~/components/pill-nav";
import { FilterNotices, MarketProblem } from "~/features/market/filter-notices";
import { ItemGrid } from "~/features/market/item-card";
import type { ItemCardModel, PageInfo } from "~/features/market/market-views";
import { Pagination, ResultCount } from "~/features/market/pagination";
import { TypeLinks } from "~/features/market/type-links";
import { NameForm } from "~/features/players/name-form";
import { playerNamePost, playerPage } from "~/routes/player.$address/route.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => playerPage(request, params.address);
export const action = ({ request, params }: ActionFunctionArgs) => playerNamePost(request, params.address);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.name ?? "Player"} · Player | Spark Era` }];

function Listing({ title, list, empty }: { title: string; list: { items: ItemCardModel[]; info: PageInfo } | null; empty: string }) {
  if (!list) return null;
  return (
    <section aria-label={title} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="section-title">{title}</h2>
        <ResultCount info={list.info} />
      </div>
      {list.items.length > 0 ? <ItemGrid items={list.items} label={title} /> : <p className="card muted text-center">{empty}</p>}
    </section>
  );
}

export default function Player() {
  const { name, wallet, ownName, path, notices, onSale, onChain, info, problem, sorts, chips, typeLinks, pageHrefs } =
    useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <Page
      title={name}
      intro={
        <>
          A Spark Era player. Wallet <span className="break-all font-mono text-sm text-slate-200">{wallet}</span>
        </>
      }
    >
      {/* Keyed by the name: a saved or removed name refills the field. */}
      {ownName && <NameForm key={ownName.current} current={ownName.current} lastResult={refused?.result} />}
      <FilterNotices notices={notices} />
      <div className="flex flex-col gap-3">
        <TypeLinks label="Item types" links={typeLinks} />
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-slate-300">Sort</span>
          <PillNav label="Sort by" items={sorts} />
        </div>
        {chips.length > 0 && (
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-slate-300">Filters</span>
            <PillNav label="Active filters: follow one to remove it" items={chips} />
            <Link to={path} className="text-sm">
              Clear all
            </Link>
          </div>
        )}
      </div>
      <MarketProblem message={problem} />
      <Listing title="On sale" list={onSale} empty="No items of this player on sale match these filters." />
      <Listing title="On chain" list={onChain} empty="No items this player holds on chain match these filters." />
      <Pagination info={info} hrefs={pageHrefs} />
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
