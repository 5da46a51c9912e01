import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LoginPrompt, Page, Section } from "~/components/page";
import { MarketProblem } from "~/features/market/filter-notices";
import { inboxPage } from "~/features/watches/watches.server";

export const loader = ({ request }: LoaderFunctionArgs) => inboxPage(request);

export const meta: MetaFunction = () => [{ title: "Inbox | Spark Era" }];

export default function Inbox() {
  const { login, alerts, unread, problem } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Inbox"
      intro={
        unread
          ? `${unread} new ${unread === 1 ? "alert" : "alerts"} since your last visit.`
          : "New listings that match your watched searches."
      }
      actions={<Link to="/marketplace/watches">Watched searches</Link>}
    >
      <Section title="Alerts" id="alerts">
        {login ? (
          <LoginPrompt href={login} what="see the alerts of your watched searches" />
        ) : problem ? (
          <MarketProblem message={problem} />
        ) : alerts.length === 0 ? (
          <p className="muted">
            No alerts yet. <Link to="/marketplace/watches">Watch a search</Link> and new listings that match it appear here.
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-space-800">
            {alerts.map((alert) => (
              <li key={alert.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3">
                <div className="min-w-0">
                  <Link to={alert.href} className="font-semibold">
                    {alert.title}
                  </Link>
                  {alert.unread && <span className="ml-2 text-xs font-semibold uppercase text-spark-400">New</span>}
                  <p className="text-sm text-slate-300">Listed at {alert.price}</p>
                  <p className="break-words text-sm text-slate-300">
                    {alert.watches.length === 1 ? "Matches your watch " : "Matches your watches "}
                    {alert.watches.map((watch, index) => (
                      <span key={`${watch.href} ${watch.label}`}>
                        {index > 0 && "; "}
                        <Link to={watch.href}>{watch.label}</Link>
                      </span>
                    ))}
                  </p>
                </div>
                <p className="text-sm text-slate-300">{alert.when}</p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </Page>
  );
}
