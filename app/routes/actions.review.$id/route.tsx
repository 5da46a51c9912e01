/**
 * Review a network fee (decision 0038): a managed wallet without BNB acts with the gas the site sends, for a fee in a
 * token the wallet holds. The page says what the action does, the fee to the wei, the total, and until when it holds;
 * one form confirms it, and works without JavaScript.
 */
import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Refused } from "~/features/actions/form-parts";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page, Section } from "~/components/page";
import { confirmFee, feeReviewPage, loaderCacheControl } from "~/routes/actions.review.$id/route.server";

export const loader = feeReviewPage;

export const action = confirmFee;

export const headers = loaderCacheControl;

export const meta: MetaFunction = () => [{ title: "Review the network fee | Spark Era" }];

export default function FeeReviewPage() {
  const { review, problem, back } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <Page title="Review the network fee" intro="Your wallet holds no BNB for this action's network fee, so the site sends it.">
      {problem && (
        <p role="alert" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
          {problem}
        </p>
      )}
      {review && (
        <Section title="What happens" id="review">
          <div className="flex flex-col gap-4 text-sm">
            <ol className="list-decimal pl-5" aria-label="The action's steps">
              {review.steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="fee-review">
              <dt className="muted">Network fee</dt>
              <dd data-testid="network-fee">{review.fee ?? "Paid by the site"}</dd>
              <dt className="muted">Gas the site sends</dt>
              <dd>{review.gas}, returned to the site when unused</dd>
              {review.spends && (
                <>
                  <dt className="muted">The action spends</dt>
                  <dd>{review.spends}</dd>
                </>
              )}
              <dt className="muted">Total from your wallet</dt>
              <dd className="font-semibold" data-testid="fee-total">
                {review.total}
              </dd>
            </dl>
            {review.expired ? (
              <p role="alert" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2">
                This fee held until {review.expiresAt} and has expired. Start the action again to see the fee as it is now.
              </p>
            ) : (
              <p className="muted">This fee holds until {review.expiresAt}. Your wallet keeps its BNB as it is.</p>
            )}
            <Refused messages={answer?.error ? [answer.error] : undefined} />
            <div className="flex flex-wrap items-center gap-4">
              {!review.expired && (
                <Form method="post" replace>
                  <button type="submit" className="btn-primary" disabled={busy}>
                    {busy ? "Please wait…" : "Confirm and pay the fee"}
                  </button>
                </Form>
              )}
              <Link to={back.href}>{review.expired ? back.label : "Cancel"}</Link>
            </div>
          </div>
        </Section>
      )}
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
