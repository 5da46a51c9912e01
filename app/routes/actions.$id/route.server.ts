/**
 * The status page's server work; routes/actions.$id/route.tsx only delegates. The route imports no other server
 * module, so its browser build gets no empty stubs of shared services and no view-model code: the page
 * receives the execution already in words (docs/architecture.md "Inside app/").
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { executionView } from "~/features/actions/execution-view";
import { followUpOf } from "~/services/action-features.server";
import { ownActionRecord } from "~/features/actions/actions.server";

export { loaderCacheControl } from "~/services/page-headers.server";

/** The signed-in owner's execution, in words; never cached, since it changes until it is final. */
export async function actionStatusPage({ request, params }: LoaderFunctionArgs) {
  const { record: execution, problem, back } = await ownActionRecord(request, params, (sso, id) => sso.execution(id));
  const headers = { "Cache-Control": "no-store" };
  // The page keeps refreshing: the action runs on whether or not its status can be read now.
  if (!execution) return data({ view: null, problem: problem.message, followUp: null, back }, { status: problem.status, headers });
  const followUp = await followUpOf(execution, back.href);
  return data({ view: executionView(execution), problem: null, followUp, back }, { headers });
}
