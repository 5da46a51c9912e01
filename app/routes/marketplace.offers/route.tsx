import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { LoginPrompt } from "~/components/page";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { MarketPage } from "~/features/market/market-page";
import type { OfferActionData } from "~/features/offers/offer-views";
import { offerPost } from "~/features/offers/offer-actions.server";
import { offersPage } from "~/routes/marketplace.offers/route.server";

const OffersDesk = lazy(() => import("~/features/offers/offers-desk"));

export const loader = ({ request }: LoaderFunctionArgs) => offersPage(request);
export const action = ({ request }: ActionFunctionArgs) => offerPost(request);

export const meta: MetaFunction = () => [{ title: "Offers | Spark Era" }];

export default function Offers() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as OfferActionData | undefined;
  return (
    <MarketPage
      title="Offers"
      intro="Offer a price for an item, or for any item of a market view. Holders accept on the item’s page or in their storage."
    >
      {data.state === "visitor" && (
        <section className="card">
          <LoginPrompt href={data.loginHref} what="make and see your offers" />
        </section>
      )}
      {data.state === "no-wallet" && (
        <section className="card">
          <p className="text-white">{BIND_WALLET_MESSAGE} to make offers.</p>
        </section>
      )}
      {data.state === "wallet" && (
        // A visitor's page (the login prompt) ships none of the forms: they load with a wallet's page.
        <Suspense fallback={null}>
          <OffersDesk data={data} answer={answer} />
        </Suspense>
      )}
    </MarketPage>
  );
}
