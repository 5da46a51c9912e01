/**
 * The status of an on-chain action of a managed wallet (issue 12 "Progress without JS"): the action in words,
 * its steps and its result, for the signed-in owner only (any other id is a 404). Until the action is final the
 * page refreshes itself: a <noscript> meta refresh in the head without JavaScript (the `handle` asks root.tsx for
 * it), an in-place revalidation with it.
 * Generic over the executor's actions; the next step a feature offers (the loot box's Open now) is its registered
 * follow-up (services/action-follow-ups.server.ts).
 */
import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ExecutionProgress } from "~/features/actions/execution-progress";
import { FollowUpForm } from "~/features/actions/follow-up-form";
import { usePollWhile } from "~/features/actions/use-poll";
import { GeneralErrorBoundary } from "~/components/error-page";
import { ItemList } from "~/components/item-list";
import { Page, Section } from "~/components/page";
import type { RouteHandle } from "~/root";
import { actionStatusPage, loaderCacheControl } from "~/routes/actions.$id/route.server";

export const loader = actionStatusPage;

export const headers = loaderCacheControl;

/** Without JavaScript the page reloads itself every second until the action is final; root.tsx renders it in the head. */
export const handle: RouteHandle = {
  refreshSeconds: (data) => {
    const page = data as { view: { final: boolean } | null } | undefined;
    return page && !page.view?.final ? 1 : null;
  },
};

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [{ title: `${page?.view?.title ?? "On-chain action"} | Spark Era` }];

export default function ActionStatus() {
  const { view, problem, followUp, back } = useLoaderData<typeof loader>();
  const final = view?.final ?? false;
  usePollWhile(!final);
  return (
    <Page title={view?.title ?? "On-chain action"} intro={view && <span className="break-all">Wallet {view.wallet}</span>}>
      {problem && (
        <p role="alert" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
          {problem} This page tries again by itself.
        </p>
      )}
      {view && (
        <Section title="Progress" id="progress">
          <ExecutionProgress view={view} />
        </Section>
      )}
      {view && view.boxIds.length > 0 && (
        <Section title="Your new boxes" id="result">
          <p className="text-sm" data-testid="new-boxes">
            {view.boxIds.map((boxId) => `#${boxId}`).join(", ")}
          </p>
        </Section>
      )}
      {view && view.items.length > 0 && (
        <Section title="What came out" id="result">
          <ItemList items={view.items} />
        </Section>
      )}
      {view?.withdrawn && (
        <Section title="Back in your wallet" id="result">
          <div className="flex flex-col gap-2 text-sm" data-testid="withdrawn">
            <p>
              {view.withdrawn.returned} and {view.withdrawn.boxes}
              {view.withdrawn.boxIds.length > 0 && `: ${view.withdrawn.boxIds.map((boxId) => `#${boxId}`).join(", ")}`}.
            </p>
            <p className="flex flex-wrap gap-4">
              <Link to={view.withdrawn.rewardsHref}>Your rewards</Link>
              {view.withdrawn.boxIds.length > 0 && <Link to={view.withdrawn.openHref}>Open your boxes</Link>}
            </p>
          </div>
        </Section>
      )}
      {view?.ship && (
        <Section title="Your ship" id="result">
          <p className="text-sm" data-testid="ship-outcome">
            {view.ship.text} <Link to={view.ship.href}>See it</Link>
          </p>
        </Section>
      )}
      {followUp && <FollowUpForm form={followUp} />}
      <nav aria-label="Where next" className="flex flex-wrap gap-4 text-sm">
        <Link to={back.href}>{back.label}</Link>
        <Link to="/marketplace/storage">Your storage</Link>
      </nav>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
