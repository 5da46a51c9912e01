/**
 * The status page's server work; routes/actions.$id/route.tsx only delegates. The route imports no other server
 * module, so its browser build gets no empty stubs of shared services and no view-model code: the page
 * receives the execution already in words (docs/architecture.md "Inside app/").
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { executionView } from "~/features/actions/execution-view";
import { followUpOf, wayBack } from "~/services/action-features.server";
import { actionProblem } from "~/features/actions/actions.server";
import { signedInApis } from "~/services/apis.server";
import type { Execution } from "~core/api/actions";

export { loaderCacheControl } from "~/services/page-headers.server";

const requestedBack = (request: Request) => new URL(request.url).searchParams.get("back");

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
      { view: null, problem: problem.message, followUp: null, back: wayBack(null, requestedBack(request)) },
      { status: problem.status, headers },
    );
  }
  const back = wayBack(execution, requestedBack(request));
  const followUp = await followUpOf(execution, back.href);
  return data({ view: executionView(execution), problem: null, followUp, back }, { headers });
}
