import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { Hidden, Refused } from "~/features/actions/form-parts";
import { StackAmountField } from "~/features/bridge/stack-amount-field";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page } from "~/components/page";
import { bridgePost } from "~/routes/bridge/route.server";

export const meta: MetaFunction = () => [{ title: "Game and chain | Spark Era" }];

export const action = bridgePost;

/** A refused item move lands here (an accepted one goes to its status page); a GET says where moves are made. */
export default function Bridge() {
  const answer = useActionData<typeof action>();
  if (!answer) {
    return (
      <Page title="Game and chain">
        <p className="text-sm">
          Move tokens on the <Link to="/game#bridge">game page</Link>, and items from <Link to="/marketplace/storage">your storage</Link> or
          an item&apos;s page.
        </p>
      </Page>
    );
  }
  const { amount: amountErrors, ...others } = answer.errors;
  const messages = Object.values(others).flat();
  const { nftType, tokenId, back, idempotencyKey, amount } = answer.values;
  const again = Boolean(amountErrors?.length && nftType && tokenId && idempotencyKey && answer.intent);
  return (
    <Page title="The item was not moved">
      <Refused messages={messages} />
      {again && (
        // Refused on its amount: the same move again, the message next to the field.
        <Form method="post" action="/bridge" className="flex flex-wrap items-end gap-3">
          <Hidden fields={{ intent: answer.intent!, nftType, tokenId, back: back ?? "/marketplace/storage", idempotencyKey }} />
          <StackAmountField id="move-amount" value={amount} errors={amountErrors} />
          <button type="submit" className="btn-secondary">
            {answer.intent === "swap-item" ? "Move into the game" : "Move to chain"}
          </button>
        </Form>
      )}
      <p className="text-sm">
        <Link to={answer.values.back ?? "/marketplace/storage"}>Back to the item</Link> · <Link to="/game#bridge">Game and chain</Link>
      </p>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
