/**
 * The status page's server work; routes/actions.$id/route.tsx only delegates. The route imports no other server
 * module, so its browser build gets no empty stubs of shared services and no view-model code: the page
 * receives the execution already in words (docs/architecture.md "Inside app/").
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { executionView } from "~/features/actions/execution-view";
import { safeRedirect } from "~/domain/safe-redirect";
import { followUpOf } from "~/services/action-follow-ups.server";
import { actionProblem } from "~/features/actions/actions.server";
import { signedInApis } from "~/services/apis.server";
import type { Execution } from "~core/api/actions";

export { loaderCacheControl } from "~/services/page-headers.server";

/** Pages whose forms start actions: the only places "Back" may lead. */
const ACTION_PAGES =
  /^\/(?:(?:lootbox|loyalty\/page)\/\d{1,3}|game|marketplace\/storage(?:\?[\w=&%.-]{0,300})?|marketplace\/detail\?nftType=\d&tokenId=\d{1,78}(?:&back=[\w%.-]{0,300})?)$/;

function backLink(request: Request, execution: Execution | null): string {
  const params = execution?.params;
  const fallback =
    params && "typeBox" in params
      ? `/lootbox/${params.typeBox}`
      : params && "poolId" in params
        ? `/loyalty/page/${params.poolId}`
        : "/game";
  const back = safeRedirect(new URL(request.url).searchParams.get("back"), fallback);
  return ACTION_PAGES.test(back) ? back : fallback;
}

/** The signed-in owner's execution, in words; never cached, since it changes until it is final. */
export async function actionStatusPage({ request, params }: LoaderFunctionArgs) {
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
      { view: null, problem: problem.message, followUp: null, back: backLink(request, null) },
      { status: problem.status, headers },
    );
  }
  const followUp = await followUpOf(execution);
  return data({ view: executionView(execution), problem: null, followUp, back: backLink(request, execution) }, { headers });
}
