import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { LoginPrompt, Section } from "~/components/page";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { MarketPage } from "~/features/market/market-page";
import { MarketProblem } from "~/features/market/filter-notices";
import { FailedAlert } from "~/features/market/failed-alert";
import { OfferForm } from "~/features/offers/offer-form";
import { OffersTable } from "~/features/offers/offers-table";
import type { OfferActionData } from "~/features/offers/offer-actions.server";
import { offerPost } from "~/features/offers/offer-actions.server";
import { OFFERS_PATH } from "~/features/offers/offer-views";
import { offersPage } from "~/routes/marketplace.offers/route.server";

export const loader = ({ request }: LoaderFunctionArgs) => offersPage(request);
export const action = ({ request }: ActionFunctionArgs) => offerPost(request);

export const meta: MetaFunction = () => [{ title: "Offers | Spark Era" }];

export default function Offers() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as OfferActionData | undefined;
  const offerAnswer = answer?.intent === "offer" ? answer : undefined;
  const otherFailure = answer && answer.intent !== "offer" ? answer.failed : null;
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
        <>
          <MarketProblem message={data.problem} />
          {data.target ? (
            <section className="card flex flex-col gap-2">
              <p className="text-sm">
                <Link to={data.target.href}>
                  {data.target.href.startsWith("/marketplace/market") ? "See these items on the market" : "Back to the item"}
                </Link>
              </p>
              <OfferForm
                title={data.target.title}
                action={data.here}
                back={data.here}
                lastResult={offerAnswer?.result ?? null}
                failed={offerAnswer?.failed ?? null}
              />
            </section>
          ) : (
            !data.problem && (
              <p className="muted">
                To make an offer, open an item, or a <Link to="/marketplace/market">market</Link> view of one item type, and choose “Make an
                offer”.
              </p>
            )
          )}
          <Section title="Your offers" id="your-offers">
            {otherFailure && <FailedAlert message={otherFailure} />}
            {data.rows.length ? (
              <OffersTable rows={data.rows} caption="Your offers" back={data.here} />
            ) : (
              <p className="muted">You have made no offers yet.</p>
            )}
            {data.openCount > 0 && (
              <Form method="post" action={OFFERS_PATH} className="mt-4">
                <input type="hidden" name="intent" value="offer-cancel-all" />
                <input type="hidden" name="back" value={data.here} />
                <button type="submit" className="btn-secondary">
                  Cancel all offers
                </button>
              </Form>
            )}
          </Section>
        </>
      )}
    </MarketPage>
  );
}
