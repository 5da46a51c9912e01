import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { Refused } from "~/components/actions/form-parts";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page } from "~/components/page";
import { bridgeIndex, bridgePost } from "./bridge.server";

export const meta: MetaFunction = () => [{ title: "Game and chain | Spark Era" }];

export const loader = bridgeIndex;

export const action = bridgePost;

/** Only a refused item move lands here (an accepted one goes to its status page, a GET to /game). */
export default function Bridge() {
  const answer = useActionData<typeof action>();
  const messages = answer ? Object.values(answer.errors).flat() : [];
  return (
    <Page title="The item was not moved">
      <Refused messages={messages} />
      <p className="text-sm">
        <Link to={answer?.back ?? "/marketplace/storage"}>Back to the item</Link> · <Link to="/game#bridge">Game and chain</Link>
      </p>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
