import { Link } from "@remix-run/react";
import { TableHead } from "~/components/table-head";
import type { TradeRowModel } from "./market-views";

/**
 * Sales: item, price, seller, buyer, time. A table from 640 px up; below it each row stacks into a card (item, then
 * price and time, then seller and buyer, named), since five columns squeezed into a phone printed over each other.
 */
export function TradeTable({ trades, caption, empty }: { trades: TradeRowModel[]; caption: string; empty: string }) {
  if (!trades.length) return <p className="muted">{empty}</p>;
  return (
    <div className="sm:overflow-x-auto">
      <table className="block w-full text-left text-sm sm:table">
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={["Item", "Price", "Seller", "Buyer", "When"]} className="sr-only sm:not-sr-only sm:table-header-group" />
        <tbody className="block sm:table-row-group">
          {trades.map((trade) => (
            <tr
              key={trade.key}
              className="grid grid-cols-2 gap-x-3 gap-y-1 border-t border-space-800 py-2 text-white sm:table-row sm:py-0"
              data-testid="trade-row"
            >
              <td className="col-span-2 sm:table-cell sm:py-1.5 sm:pr-3">
                <span className="flex items-center gap-2">
                  <img src={trade.image} alt="" width={32} height={32} className="h-8 w-8 shrink-0 rounded bg-space-950" />
                  <span className="min-w-0 break-words">
                    <Link to={trade.href}>{trade.name}</Link>
                    <span className="block text-xs text-slate-300">{trade.typeLabel}</span>
                  </span>
                </span>
              </td>
              {/* On a phone the price wraps inside its half: an 18-decimal amount ran over the time beside it. */}
              <td className="row-start-2 break-words font-semibold text-spark-300 sm:table-cell sm:whitespace-nowrap sm:py-1.5 sm:pr-3">
                {trade.price}
              </td>
              <td className="row-start-3 font-mono text-xs sm:table-cell sm:py-1.5 sm:pr-3">
                <span className="font-sans text-slate-300 sm:hidden">Seller </span>
                {trade.seller}
              </td>
              <td className="row-start-3 text-right font-mono text-xs sm:table-cell sm:py-1.5 sm:pr-3 sm:text-left">
                <span className="font-sans text-slate-300 sm:hidden">Buyer </span>
                {trade.buyer ?? "—"}
              </td>
              <td className="col-start-2 row-start-2 whitespace-nowrap text-right sm:table-cell sm:py-1.5 sm:text-left">{trade.at}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
