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
import { Section } from "~/components/page";
import { TableHead } from "~/components/table-head";
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
  const { item, back, problem, redirectTo, trade, move, bridgeChain, chainTrade, offers } = useLoaderData<typeof loader>();
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
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-300">Owner</dt>
            <dd className="break-all text-white">
              {item.isOwner ? (
                <>
                  You <span className="font-mono text-xs text-slate-300">({item.owner})</span>
                </>
              ) : (
                // Without a player to link to there is no href: the address is plain text.
                <a href={item.holderHref} className="font-mono">
                  {item.holderName}
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
            {(item.amount > 1 || item.isStack) && (
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

      <Section title="Attributes" id="attributes">
        {item.metadataSource === "failed" && (
          <p role="status" className="mb-3 rounded-lg border border-spark-600 bg-space-900 px-4 py-3 text-sm text-slate-100">
            {METADATA_FAILED_NOTICE}
          </p>
        )}
        {item.metadataSource === "chain" ? (
          <>
            <p className="muted mb-2 text-sm">{METADATA_FROM_CHAIN}</p>
            <MetadataList traits={item.metadata} />
          </>
        ) : (
          <MarketAttributes item={item} />
        )}
        {item.stats && (
          <p className="mt-3 text-sm">
            <Link to={`/spaceship/detail?tokenId=${item.tokenId}`}>Power, duration, slots and history of this ship</Link>
          </p>
        )}
      </Section>

      {item.metadataSource !== "chain" && (
        <Section title="Metadata" id="metadata">
          <MetadataList traits={item.metadata} />
        </Section>
      )}

      <Section title="History" id="history">
        {item.history.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <TableHead columns={["Event", "Price", "From", "To", "When"]} />
              <tbody>
                {item.history.map((event) => (
                  <tr key={event.key} className="border-t border-space-800 text-white">
                    <td className="py-1 pr-3">{event.event}</td>
                    <td className="py-1 pr-3">{event.price}</td>
                    <td className="py-1 pr-3 font-mono text-xs">{event.from}</td>
                    <td className="py-1 pr-3 font-mono text-xs">{event.to ?? "—"}</td>
                    <td className="py-1">{event.at}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">No trades yet.</p>
        )}
      </Section>
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

const METADATA_FROM_CHAIN = "Read from this token’s metadata: the address its contract gives (tokenURI), fetched just now.";
const METADATA_FAILED_NOTICE =
  "This token’s metadata could not be read from the chain just now, so this shows the market’s copy, which may be behind an upgrade.";

type DetailItem = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["item"]>;

function MetadataList({ traits }: { traits: { name: string; value: string }[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
      {traits.map((trait) => (
        <div key={trait.name} className="flex justify-between gap-3 border-b border-space-800 py-1">
          <dt className="text-slate-300">{trait.name}</dt>
          <dd className="text-white">{trait.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The market's attributes of the item, with a ship's stats table. */
function MarketAttributes({ item }: { item: DetailItem }) {
  return (
    <>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {item.named.map((attribute) => (
          <div key={attribute.label} className="flex justify-between gap-3 border-b border-space-800 py-1">
            <dt className="text-slate-300">{attribute.label}</dt>
            <dd className="text-white">{attribute.value}</dd>
          </div>
        ))}
      </dl>
      {item.stats && (
        <table className="mt-4 w-full max-w-sm text-sm">
          <caption className="mb-1 text-left font-semibold text-white">Spaceship stats</caption>
          <tbody>
            {item.stats.rows.map((row) => (
              <tr key={row.label} className="border-b border-space-800">
                <th scope="row" className="py-1 text-left font-normal text-slate-300">
                  {row.label}
                </th>
                <td className="py-1 text-right text-white">{row.value}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" className="py-1 text-left font-semibold text-white">
                Total
              </th>
              <td className="py-1 text-right font-semibold text-white">{item.stats.total}</td>
            </tr>
          </tbody>
        </table>
      )}
    </>
  );
}
