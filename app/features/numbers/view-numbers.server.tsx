/**
 * The numbers at the top of a market view and the price history (issue 30), rendered by the loader only: read-only
 * sections whose code never ships to the browser (decision 0025; components/server-html.tsx puts the markup in the page).
 */
import { TableHead } from "~/components/table-head";
import { serverHtml } from "~/services/server-html.server";
import type { HistoryView, Stat } from "./number-views";

/**
 * One card: a row per number on a phone (label, then its values inline), a column per number from lg up. On a phone
 * the label stands in its own column, so values that wrap line up under the first value, not under the label.
 */
function ViewNumbers({ stats }: { stats: Stat[] }) {
  return (
    <section aria-label="The numbers of this view" className="card !p-3">
      <dl className="grid gap-y-1.5 lg:grid-cols-5 lg:gap-x-4">
        {stats.map((stat) => (
          <div key={stat.label} className="relative flex flex-wrap items-baseline gap-x-2 pl-24 lg:static lg:flex-col lg:gap-0.5 lg:pl-0">
            <dt className="absolute left-0 top-1 w-24 text-xs text-slate-300 lg:static">{stat.label}</dt>
            {stat.values.map((value) => (
              // "anywhere", not "break-word": a flex item's width then shrinks to fit, and an 18-decimal price breaks.
              <dd key={value} className="min-w-0 font-semibold text-white [overflow-wrap:anywhere]">
                {value}
              </dd>
            ))}
            {stat.note && <dd className="text-xs text-slate-300">{stat.note}</dd>}
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Sales per period, one chart and table per currency; the period is a plain link, so a bookmark keeps it. */
function PriceHistory({ history }: { history: HistoryView }) {
  return (
    <details className="card group" open={history.open}>
      <summary className="flex cursor-pointer flex-wrap items-baseline justify-between gap-2">
        <span className="section-title">{history.heading}</span>
        <span className="text-sm text-spark-300 underline group-open:hidden">Show the chart</span>
      </summary>
      <nav aria-label="Chart period" className="my-3 flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {history.periods.map((p) => (
          <a
            key={p.href}
            href={p.href}
            aria-current={p.current ? "page" : undefined}
            className={p.current ? "font-semibold text-white" : ""}
          >
            {p.label}
          </a>
        ))}
      </nav>
      {history.empty && <p className="muted">{history.empty}</p>}
      <div className="grid gap-6 md:grid-cols-2">
        {history.charts.map((c) => (
          <figure key={c.caption} className="flex min-w-0 flex-col gap-1 text-xs text-slate-300">
            <figcaption className="text-sm text-white">{c.caption}</figcaption>
            <span>{c.high}</span>
            {/* The figcaption and the table say what the chart shows. */}
            <svg viewBox="0 0 300 100" aria-hidden="true" className="h-auto w-full rounded bg-space-900">
              <path d={c.ranges} className="stroke-spark-400" strokeWidth={4} strokeLinecap="round" />
              <path d={c.lows} fill="none" className="stroke-slate-300" strokeWidth={1} />
            </svg>
            <p className="flex flex-wrap justify-between gap-x-3">
              <span>{c.low}</span>
              <span>{c.span}</span>
            </p>
            <div className="overflow-x-auto">
              <table className="mt-1 w-full text-left">
                <caption className="sr-only">{c.caption}</caption>
                <TableHead columns={["Date", "Sales", "Lowest", "Highest"]} />
                <tbody>
                  {c.rows.map((row) => (
                    <tr key={row[0]} className="border-t border-space-800 text-white">
                      {row.map((cell, i) => (
                        <td key={i} className="py-1 pr-3">
                          {cell}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </figure>
        ))}
      </div>
    </details>
  );
}

export const viewNumbersHtml = (stats: Stat[]) => serverHtml(<ViewNumbers stats={stats} />);
export const priceHistoryHtml = (history: HistoryView) => serverHtml(<PriceHistory history={history} />);
