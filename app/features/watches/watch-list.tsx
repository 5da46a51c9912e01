import type { ReactNode } from "react";
import { LoginPrompt } from "~/components/page";
import { MarketProblem } from "~/features/market/filter-notices";

/**
 * The list of a watches page (the inbox's alerts, the watched searches): a visitor is asked to log in to `what`, a
 * market problem is said, an empty list says `empty`; else `row` gives each item's line.
 */
export function WatchList<Item>({
  login,
  what,
  problem,
  items,
  empty,
  row,
}: {
  login: string | null;
  what: string;
  problem: string | null;
  items: readonly Item[];
  empty: ReactNode;
  row: (item: Item) => ReactNode;
}) {
  if (login) return <LoginPrompt href={login} what={what} />;
  if (problem) return <MarketProblem message={problem} />;
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return <ul className="flex flex-col divide-y divide-space-800">{items.map(row)}</ul>;
}
