import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList } from "~/components/error-list";
import { LoginPrompt, Page, Section } from "~/components/page";
import { MarketProblem } from "~/features/market/filter-notices";
import { WatchFields } from "~/features/watches/watch-fields";
import { watchesAction, watchesPage } from "~/features/watches/watches.server";

export const loader = ({ request }: LoaderFunctionArgs) => watchesPage(request);
export const action = ({ request }: ActionFunctionArgs) => watchesAction(request);

export const meta: MetaFunction = () => [{ title: "Watched searches | Spark Era" }];

export default function Watches() {
  const { login, watches, problem } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <Page
      title="Watched searches"
      intro="Market views you watch. A new listing that matches one shows in your inbox and in one email an hour at most. New matches count from your last visit here."
      actions={<Link to="/marketplace/inbox">Your inbox</Link>}
    >
      {refused && (
        <Section title="Watch this search" id="watch-again">
          <Form method="post" className="flex flex-wrap items-end gap-3" aria-labelledby="watch-again-title">
            <input type="hidden" name="intent" value="add" />
            <input type="hidden" name="search" value={refused.search} />
            <p className="w-full break-words text-sm text-slate-300">{refused.label}</p>
            <WatchFields errors={refused.result.error ?? {}} values={(refused.result.initialValue ?? {}) as Record<string, string>} />
            <button type="submit" className="btn-primary">
              Watch this search
            </button>
            <div className="w-full">
              <ErrorList errors={refused.result.error?.[""]} />
            </div>
          </Form>
        </Section>
      )}
      <Section title="Your watched searches" id="watches">
        {login ? (
          <LoginPrompt href={login} what="see and manage your watched searches" />
        ) : problem ? (
          <MarketProblem message={problem} />
        ) : watches.length === 0 ? (
          <p className="muted">
            You watch no search yet. Open a <Link to="/marketplace/market">market view</Link>, filter it, and choose Watch this search.
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-space-800">
            {watches.map((watch) => (
              <li key={watch.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <Link to={watch.href} className="break-words">
                    {watch.label}
                  </Link>
                  <p className="text-sm text-slate-300">
                    {watch.price} · <strong className="text-white">{watch.fresh}</strong> · {watch.email}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="id" value={watch.id} />
                  <button type="submit" className="btn-secondary" aria-label={`Remove the watch of ${watch.label}`}>
                    Remove
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </Page>
  );
}
