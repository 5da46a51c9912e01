import type { HistoryView, Stat } from "./numbers.server";

/**
 * The numbers at the top of a market view and the price history (issue 30). Everything is text and SVG paths from the
 * server (numbers.server.ts): this only places it, so the page ships a few hundred bytes for it.
 */
export function ViewNumbers({ numbers }: { numbers: { stats: Stat[]; history: HistoryView } | null }) {
  if (!numbers) return null;
  return (
    <section aria-label="The numbers of this view" className="flex flex-col gap-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {numbers.stats.map((stat) => (
          <div key={stat.label} className="card !p-3">
            <dt className="text-xs text-slate-300">{stat.label}</dt>
            {stat.values.map((value) => (
              <dd key={value} className="break-words font-semibold text-white">
                {value}
              </dd>
            ))}
            {stat.note && <dd className="text-xs text-slate-300">{stat.note}</dd>}
          </div>
        ))}
      </dl>
      <PriceHistory history={numbers.history} />
    </section>
  );
}

/** Sales per period, one chart and table per currency; the period is a plain link, so a bookmark keeps it. */
export function PriceHistory({ history }: { history: HistoryView | null }) {
  if (!history) return null;
  return (
    <details className="card" open={history.open}>
      <summary className="section-title cursor-pointer">{history.heading}</summary>
      <nav aria-label="Period" className="my-3 flex flex-wrap gap-3 text-sm">
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
      <div className="grid gap-4 md:grid-cols-2">
        {history.charts.map((c) => (
          <figure key={c.currency} className="min-w-0">
            <figcaption className="text-sm text-white">
              {c.currency}: {c.summary}
            </figcaption>
            <p className="text-xs text-slate-300">{c.high}</p>
            <svg viewBox="0 0 300 100" aria-hidden="true" className="h-auto w-full rounded bg-space-900">
              <path d={c.ranges} className="stroke-spark-400" strokeWidth={4} strokeLinecap="round" />
              <path d={c.lows} fill="none" className="stroke-slate-300" strokeWidth={1} />
            </svg>
            <p className="flex justify-between text-xs text-slate-300">
              <span>{c.low}</span>
              <span>
                {c.first} → {c.last}
              </span>
            </p>
            <table className="mt-2 w-full text-left text-xs">
              <caption className="sr-only">{`Sales in ${c.currency}`}</caption>
              <thead className="text-slate-300">
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Sales</th>
                  <th scope="col">Lowest</th>
                  <th scope="col">Highest</th>
                </tr>
              </thead>
              <tbody>
                {c.rows.map((row) => (
                  <tr key={row[0]} className="border-t border-space-800 text-white">
                    {row.map((cell, i) => (
                      <td key={i}>{cell}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </figure>
        ))}
      </div>
    </details>
  );
}
