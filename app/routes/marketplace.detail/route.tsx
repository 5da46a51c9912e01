import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRevalidator, useRouteError } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { GeneralErrorBoundary } from "~/components/error-page";
import { ItemBadges } from "~/features/market/item-card";
import { FavoriteButton } from "~/features/market/favorite-button";
import { MarketProblem } from "~/features/market/filter-notices";
import { TradePanel } from "~/features/market/trade-panel";
import type { PanelAnswer } from "~/features/market/trade-state";
import { MarketPage } from "~/features/market/market-page";
import { ServerHtml } from "~/components/server-html";
import { detailPage, detailPost, loaderCacheControl } from "~/routes/marketplace.detail/route.server";

const ItemMoveSection = lazy(() => import("~/features/bridge/item-move-section"));
const ItemOffersSection = lazy(() => import("~/features/offers/item-offers-section"));

export const loader = ({ request }: LoaderFunctionArgs) => detailPage(request);
export const action = ({ request }: ActionFunctionArgs) => detailPost(request);

export const headers = loaderCacheControl;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.item ? `${data.item.name} · ` : ""}Item detail | Spark Era` },
];

function BackLink({ to }: { to: string }) {
  return (
    <Link to={to} className="text-sm">
      ← Back to the list
    </Link>
  );
}

export default function MarketplaceDetail() {
  const { item, sections, back, problem, redirectTo, trade, move, bridgeChain, chainTrade, offers } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const actionData = useActionData<typeof action>();
  if (!item) {
    return (
      <MarketPage title="Item detail">
        <BackLink to={back} />
        <MarketProblem message={problem} />
        {!problem && (
          <p className="muted">
            No item is chosen. Pick one in the <Link to="/marketplace/market">market</Link> or in your{" "}
            <Link to="/marketplace/storage">storage</Link>.
          </p>
        )}
      </MarketPage>
    );
  }
  return (
    <MarketPage title="Item detail">
      <BackLink to={back} />
      <div className="grid gap-6 md:grid-cols-[20rem_1fr]">
        <img
          src={item.image}
          alt={item.name}
          width={320}
          height={320}
          className="aspect-square w-full rounded-xl border border-space-700 bg-space-900 object-contain p-6"
        />
        <div className="flex flex-col gap-4">
          <div>
            <ItemBadges item={item} />
            <h2 className="mt-2 text-xl font-bold text-white">{item.name}</h2>
          </div>
          {item.pending && (
            // Server-rendered: the note is there without JS, and goes with the next load once the change is final.
            <p role="status" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
              {item.pending}
            </p>
          )}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-300">Owner</dt>
            <dd className="break-all text-white">
              {item.isOwner ? (
                <>
                  You <span className="font-mono text-xs text-slate-300">({item.owner})</span>
                </>
              ) : (
                // Without a player to link to there is no href: the name is plain text. A wallet's short form has the
                // whole address in its title.
                <a href={item.holder.href} title={item.holder.wallet} className={item.holder.named ? undefined : "font-mono"}>
                  {item.holder.name}
                </a>
              )}
            </dd>
            {item.listedAt && (
              <>
                <dt className="text-slate-300">Listed</dt>
                <dd className="text-white">{item.listedAt}</dd>
              </>
            )}
            <dt className="text-slate-300">Token id</dt>
            <dd className="break-all text-white">{item.tokenLabel}</dd>
            {(item.amount !== "1" || item.isStack) && (
              <>
                <dt className="text-slate-300">Amount</dt>
                <dd className="text-white">{item.amount}</dd>
              </>
            )}
            <dt className="text-slate-300">Views</dt>
            <dd className="text-white">{item.views}</dd>
          </dl>
          <FavoriteButton state={item.favorite} redirectTo={redirectTo} />
        </div>
      </div>

      <TradePanel
        key={`${item.onSale}-${item.owner}-${item.listingId}`}
        item={{
          tokenId: item.tokenId,
          nftType: item.nftType,
          onSale: item.onSale,
          price: item.price,
          priceWei: item.priceWei,
          currency: item.currency,
          listingId: item.listingId,
          seller: item.seller,
          isOwner: item.isOwner,
          location: item.location,
          venue: item.venue,
          chainTradable: item.chainTradable,
        }}
        viewer={trade}
        actionData={actionData as PanelAnswer | undefined}
        chainTrade={chainTrade}
      />

      {move && (
        // Only a holder's page has this section: its code loads with it, never for a visitor.
        <Suspense fallback={null}>
          <ItemMoveSection
            move={move}
            bridgeChain={bridgeChain}
            wallet={trade?.wallet ?? null}
            here={redirectTo}
            onConfirmed={revalidator.revalidate}
          />
        </Suspense>
      )}

      {offers && (
        <Suspense fallback={null}>
          <ItemOffersSection offers={offers} />
        </Suspense>
      )}

      <ServerHtml markup={sections} className="flex flex-col gap-8" />
    </MarketPage>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <MarketPage title="Item not found">
        <p className="muted">
          {typeof error.data === "string" ? error.data : "We can’t find this item."} Browse the <Link to="/marketplace/market">market</Link>{" "}
          instead.
        </p>
      </MarketPage>
    );
  }
  return <GeneralErrorBoundary />;
}
