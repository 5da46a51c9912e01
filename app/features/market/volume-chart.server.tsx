import { formatWei, shownAmount } from "~core/money";
import { Amount } from "~/components/amount";
import { TableHead } from "~/components/table-head";
import { serverHtml } from "~/services/server-html.server";

export interface VolumePoint {
  date: string;
  trades: number;
  /** Wei of the chart's currency. */
  volume: string;
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 64, right: 8, top: 12, bottom: 28 };

const label = (wei: bigint) => formatWei(wei, { group: true, maxFraction: 2 });

/**
 * Daily sale volume as bars, drawn on the server: plain SVG with a title and a description for screen readers,
 * and the same figures as a table below. Heights come from bigint wei scaled to the largest day.
 */
function VolumeChart({ points, currency, period }: { points: VolumePoint[]; currency: string; period: string }) {
  const values = points.map((point) => BigInt(point.volume));
  const max = values.reduce((a, b) => (a > b ? a : b), 0n);
  const total = values.reduce((a, b) => a + b, 0n);
  const trades = points.reduce((sum, point) => sum + point.trades, 0);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const step = plotWidth / Math.max(1, points.length);
  const busiest = points[values.findIndex((value) => value === max)];
  const ticks = points.length ? [0, Math.floor((points.length - 1) / 2), points.length - 1] : [];
  return (
    <figure className="flex flex-col gap-3">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="volume-chart-title"
        aria-describedby="volume-chart-desc"
        className="h-auto w-full"
      >
        <title id="volume-chart-title">{`Daily sales volume in ${currency}, ${period.toLowerCase()}`}</title>
        <desc id="volume-chart-desc">
          {max === 0n
            ? `No sales in ${currency} in this period.`
            : `${label(total)} ${currency} in total; the busiest day was ${busiest.date} with ${label(max)} ${currency}. ${trades} sales in all currencies.`}
        </desc>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + plotHeight} y2={PAD.top + plotHeight} className="stroke-space-600" />
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top} y2={PAD.top} className="stroke-space-700" strokeDasharray="4 4" />
        <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" className="fill-slate-300 text-[11px]">
          {label(max)}
        </text>
        <text x={PAD.left - 6} y={PAD.top + plotHeight} textAnchor="end" className="fill-slate-300 text-[11px]">
          0
        </text>
        {points.map((point, i) => {
          const height = max === 0n ? 0 : (Number((values[i] * 10_000n) / max) / 10_000) * plotHeight;
          return (
            <rect
              key={point.date}
              x={PAD.left + i * step + step * 0.15}
              width={step * 0.7}
              y={PAD.top + plotHeight - height}
              height={height}
              rx={1}
              className="fill-spark-400"
            >
              <title>{`${point.date}: ${label(values[i])} ${currency}; ${point.trades} ${point.trades === 1 ? "sale" : "sales"} in all currencies`}</title>
            </rect>
          );
        })}
        {ticks.map((i) => (
          <text key={i} x={PAD.left + i * step + step / 2} y={HEIGHT - 8} textAnchor="middle" className="fill-slate-300 text-[11px]">
            {points[i].date.slice(5)}
          </text>
        ))}
      </svg>
      <details>
        <summary className="text-sm text-spark-300 underline">Show the figures as a table</summary>
        {/* Scrolls on its own: focusable so keyboards can scroll it too. */}
        <div className="mt-2 max-h-72 overflow-y-auto" tabIndex={0} role="region" aria-label={`Daily figures in ${currency}`}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{`Daily sales volume in ${currency}`}</caption>
            <TableHead columns={["Date", "Sales (all currencies)", `Volume (${currency})`]} />
            <tbody>
              {points.map((point, i) => (
                <tr key={point.date} className="border-t border-space-800 text-white">
                  <td className="py-1 pr-3">{point.date}</td>
                  <td className="py-1 pr-3">{point.trades}</td>
                  <td className="py-1">
                    <Amount value={shownAmount(values[i], null, "balance")} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** The chart's markup, for the page's ServerHtml: read-only, so its code stays on the server (decision 0025). */
export const volumeChartHtml = (props: { points: VolumePoint[]; currency: string; period: string }) =>
  serverHtml(<VolumeChart {...props} />);
