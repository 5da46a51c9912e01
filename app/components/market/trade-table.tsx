import { Link } from "@remix-run/react";
import { TableHead } from "~/components/table-head";
import type { TradeRowModel } from "~/domain/market-views";

/** Sales as a table: item, price, seller, buyer, time. */
export function TradeTable({ trades, caption, empty }: { trades: TradeRowModel[]; caption: string; empty: string }) {
  if (!trades.length) return <p className="muted">{empty}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={["Item", "Price", "Seller", "Buyer", "When"]} />
        <tbody>
          {trades.map((trade) => (
            <tr key={trade.key} className="border-t border-space-800 text-white">
              <td className="py-1.5 pr-3">
                <span className="flex items-center gap-2">
                  <img src={trade.image} alt="" width={32} height={32} className="h-8 w-8 rounded bg-space-950" />
                  <span>
                    <Link to={trade.href}>{trade.name}</Link>
                    <span className="block text-xs text-slate-300">{trade.typeLabel}</span>
                  </span>
                </span>
              </td>
              <td className="whitespace-nowrap py-1.5 pr-3 font-semibold text-spark-300">{trade.price}</td>
              <td className="py-1.5 pr-3 font-mono text-xs">{trade.seller}</td>
              <td className="py-1.5 pr-3 font-mono text-xs">{trade.buyer ?? "—"}</td>
              <td className="whitespace-nowrap py-1.5">{trade.at}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
