/**
 * A sponsored action's network fee, reviewed before anything is queued (decision 0038); routes/actions.review.$id
 * only delegates. The loader shows the signed-in owner's quote (any other id is a 404); confirming queues the action
 * once and leads to its status page. A confirmed quote leads there too, so a resent form or a back button finds it.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { GasQuote } from "~core/api/actions";
import { actionProblem, statusPath } from "~/features/actions/actions.server";
import { feeReview } from "~/features/actions/fee-review";
import { wayBack } from "~/services/action-features.server";
import { signedInApis } from "~/services/apis.server";

export { loaderCacheControl } from "~/services/page-headers.server";

const quoteId = (id: string | undefined) => {
  if (!id || !/^[0-9a-f]{32}$/.test(id)) throw new Response("Not found", { status: 404 });
  return id;
};
const requestedBack = (request: Request) => new URL(request.url).searchParams.get("back");
const headers = { "Cache-Control": "no-store" };

export async function feeReviewPage({ request, params }: LoaderFunctionArgs) {
  const id = quoteId(params.id);
  const { sso } = await signedInApis(request);
  let quote: GasQuote;
  try {
    quote = await sso.gasQuote(id);
  } catch (error) {
    const problem = actionProblem(error);
    if (problem.status === 404) throw new Response("Not found", { status: 404 });
    return data(
      { review: null, problem: problem.message, back: wayBack(null, requestedBack(request)) },
      { status: problem.status, headers },
    );
  }
  const back = wayBack(quote, requestedBack(request));
  if (quote.executionId) throw redirect(statusPath(quote.executionId, back.href), 303);
  return data({ review: feeReview(quote), problem: null, back }, { headers });
}

export async function confirmFee({ request, params }: ActionFunctionArgs) {
  const id = quoteId(params.id);
  const { sso } = await signedInApis(request);
  try {
    const execution = await sso.confirmGasQuote(id);
    return redirect(statusPath(execution.id, wayBack(execution, requestedBack(request)).href), 303);
  } catch (error) {
    const problem = actionProblem(error);
    return data({ error: problem.message }, { status: problem.status, headers });
  }
}
