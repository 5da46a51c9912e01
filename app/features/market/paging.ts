/** Which pages a list's pagination shows and links; the server writes the links, the page only lays them out. */
import { RESULT_WINDOW } from "~/features/market/filters/paths";
import type { PageInfo } from "./market-views";

/** Page numbers around the current one, with the first and last: 1 … 4 5 6 … 20. */
export function pageWindow(page: number, last: number): (number | "gap")[] {
  const pages = new Set([1, last, page - 1, page, page + 1].filter((n) => n >= 1 && n <= last));
  const sorted = [...pages].sort((a, b) => a - b);
  return sorted.flatMap((n, i) => (i > 0 && n - sorted[i - 1] > 1 ? ["gap" as const, n] : [n]));
}

/** The last page one can reach: the backend serves at most RESULT_WINDOW results of a query. */
export function lastPage({ pageSize, total }: PageInfo): number {
  return Math.max(1, Math.min(Math.ceil(total / pageSize), Math.floor(RESULT_WINDOW / pageSize)));
}

/** The URL of every page the pagination links (the window, Previous and Next), by page number. */
export function pageHrefs(info: PageInfo, hrefFor: (page: number) => string): Record<number, string> {
  const last = lastPage(info);
  const linked = new Set([...pageWindow(info.page, last).filter((n) => n !== "gap"), Math.min(info.page - 1, last), info.page + 1]);
  return Object.fromEntries([...linked].filter((n) => n >= 1 && n <= last).map((n) => [n, hrefFor(n)]));
}

/** "Showing 11–20 of 1,234 items", "Showing 21 of 21 items", "3 items", "1 item", "No items". */
export function resultCountText(info: PageInfo): string {
  const first = (info.page - 1) * info.pageSize + 1;
  const lastShown = Math.min(info.page * info.pageSize, info.total);
  const total = `${info.total.toLocaleString("en")}${info.capped ? "+" : ""}`;
  const items = info.total === 1 && !info.capped ? "item" : "items";
  if (info.total === 0) return "No items";
  // Past the last page, or every item on this one: the count says it all.
  if (first > info.total || (first === 1 && lastShown === info.total && !info.capped)) return `${total} ${items}`;
  return first === lastShown
    ? `Showing ${first.toLocaleString("en")} of ${total} ${items}`
    : `Showing ${first.toLocaleString("en")}–${lastShown.toLocaleString("en")} of ${total} ${items}`;
}
