import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Page, Section } from "~/components/page";
import { unsubscribeAction, unsubscribePage } from "~/features/watches/watches.server";

/** The email's unsubscribe link: no login; GET asks, POST stops the emails (a mail scanner's GET changes nothing). */
export const loader = ({ request }: LoaderFunctionArgs) => unsubscribePage(request);
export const action = ({ request }: ActionFunctionArgs) => unsubscribeAction(request);

export const meta: MetaFunction = () => [{ title: "Stop emails for a watched search | Spark Era" }, { name: "robots", content: "noindex" }];

export default function Unsubscribe() {
  const asked = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const view = done ?? asked;
  return (
    <Page title="Stop emails for a watched search">
      <Section title={view.state === "refused" ? "This link does not work" : "Watched search"} id="unsubscribe">
        {view.state === "refused" ? (
          <p role="alert">{view.message}</p>
        ) : view.state === "done" || !view.emailOn ? (
          <p role="status">
            Emails for this search are stopped. Its alerts still show in your inbox while you watch <Link to={view.viewHref}>the view</Link>
            .
          </p>
        ) : (
          <Form method="post" className="flex flex-col items-start gap-3">
            <p>
              Stop the emails about new listings in <Link to={view.viewHref}>this market view</Link>?
            </p>
            <input type="hidden" name="token" value={view.token} />
            <button type="submit" className="btn-primary">
              Stop these emails
            </button>
          </Form>
        )}
      </Section>
    </Page>
  );
}
