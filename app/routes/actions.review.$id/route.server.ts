/**
 * A sponsored action's network fee, reviewed before anything is queued (decision 0038); routes/actions.review.$id
 * only delegates. The loader shows the signed-in owner's quote (any other id is a 404); confirming queues the action
 * once and leads to its status page. A confirmed quote leads there too, so a resent form or a back button finds it.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { actionProblem, executorId, ownActionRecord, requestedBack, statusPath } from "~/features/actions/actions.server";
import { feeReview } from "~/features/actions/fee-review";
import { wayBack } from "~/services/action-features.server";
import { signedInApis } from "~/services/apis.server";

export { loaderCacheControl } from "~/services/page-headers.server";

const headers = { "Cache-Control": "no-store" };

export async function feeReviewPage({ request, params }: LoaderFunctionArgs) {
  const { record: quote, problem, back } = await ownActionRecord(request, params, (sso, id) => sso.gasQuote(id));
  if (!quote) return data({ review: null, problem: problem.message, back }, { status: problem.status, headers });
  if (quote.executionId) throw redirect(statusPath(quote.executionId, back.href), 303);
  return data({ review: feeReview(quote), problem: null, back }, { headers });
}

export async function confirmFee({ request, params }: ActionFunctionArgs) {
  const id = executorId(params.id);
  const { sso } = await signedInApis(request);
  try {
    const execution = await sso.confirmGasQuote(id);
    return redirect(statusPath(execution.id, wayBack(execution, requestedBack(request)).href), 303);
  } catch (error) {
    const problem = actionProblem(error);
    return data({ error: problem.message }, { status: problem.status, headers });
  }
}
