/**
 * The status of an on-chain action of a managed wallet (issue 12 "Progress without JS"): the action in words,
 * its steps and its result, for the signed-in owner only (any other id is a 404). Until the action is final the
 * page refreshes itself: a <noscript> meta refresh without JavaScript, an in-place revalidation with it.
 * Generic over the executor's actions; what a loot box adds (Open now, the purchase event) comes from its module.
 */
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ExecutionProgress } from "~/components/actions/execution-progress";
import { usePollWhile } from "~/components/actions/use-poll";
import { GeneralErrorBoundary } from "~/components/error-page";
import { ItemList } from "~/components/lootbox/items";
import { OpenNowForm } from "~/components/lootbox/open-now-form";
import { Page, Section } from "~/components/page";
import { executionView } from "~/domain/execution-view";
import { safeRedirect } from "~/domain/safe-redirect";
import { actionProblem } from "~/services/actions.server";
import { signedInApis } from "~/services/apis.server";
import { lootboxFollowUp } from "~/services/lootbox-actions.server";
import { loaderCacheControl } from "~/services/page-headers.server";
import type { Execution } from "~core/api/actions";

/** Pages whose forms start actions: the only places "Back" may lead. */
const ACTION_PAGES = /^\/lootbox\/\d{1,3}$/;

function backLink(request: Request, execution: Execution | null): string {
  const fallback = execution && "typeBox" in execution.params ? `/lootbox/${execution.params.typeBox}` : "/game";
  const back = safeRedirect(new URL(request.url).searchParams.get("back"), fallback);
  return ACTION_PAGES.test(back) ? back : fallback;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = params.id ?? "";
  if (!/^[0-9a-f]{32}$/.test(id)) throw new Response("Not found", { status: 404 });
  const { sso } = await signedInApis(request);
  const headers = { "Cache-Control": "no-store" };
  let execution: Execution;
  try {
    execution = await sso.execution(id);
  } catch (error) {
    const problem = actionProblem(error);
    if (problem.status === 404) throw new Response("Not found", { status: 404 });
    // The page keeps refreshing: the action runs on whether or not its status can be read now.
    return data(
      { view: null, problem: problem.message, openNow: null, back: backLink(request, null) },
      { status: problem.status, headers },
    );
  }
  const openNow = await lootboxFollowUp(execution);
  return data({ view: executionView(execution), problem: null, openNow, back: backLink(request, execution) }, { headers });
}

export const headers = loaderCacheControl;

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [{ title: `${page?.view?.title ?? "On-chain action"} | Spark Era` }];

export default function ActionStatus() {
  const { view, problem, openNow, back } = useLoaderData<typeof loader>();
  const final = view?.final ?? false;
  usePollWhile(!final);
  return (
    <Page title={view?.title ?? "On-chain action"} intro={view && <span className="break-all">Wallet {view.wallet}</span>}>
      {!final && (
        <noscript>
          <meta httpEquiv="refresh" content="1" />
        </noscript>
      )}
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
          <div className="flex flex-col gap-3">
            <p className="text-sm" data-testid="new-boxes">
              {view.boxIds.map((boxId) => `#${boxId}`).join(", ")}
            </p>
            {openNow && <OpenNowForm form={openNow} />}
          </div>
        </Section>
      )}
      {view && view.items.length > 0 && (
        <Section title="What came out" id="result">
          <ItemList items={view.items} />
        </Section>
      )}
      <nav aria-label="Where next" className="flex flex-wrap gap-4 text-sm">
        <Link to={back}>{back.startsWith("/lootbox/") ? "Back to the loot box" : "Back"}</Link>
        <Link to="/marketplace/storage">Your storage</Link>
      </nav>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
