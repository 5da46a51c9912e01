import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { Refused } from "~/features/actions/form-parts";
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
  const messages = Object.values(answer.errors).flat();
  return (
    <Page title="The item was not moved">
      <Refused messages={messages} />
      <p className="text-sm">
        <Link to={answer.values.back ?? "/marketplace/storage"}>Back to the item</Link> · <Link to="/game#bridge">Game and chain</Link>
      </p>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
