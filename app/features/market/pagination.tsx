import { Link } from "@remix-run/react";
import type { PageInfo } from "./market-views";
import { lastPage, pageWindow, resultCountText } from "./paging";

export function ResultCount({ info }: { info: PageInfo }) {
  return (
    <p className="text-sm text-slate-300" role="status">
      {resultCountText(info)}
    </p>
  );
}

/**
 * Plain links, so paging works without JavaScript and every page is a bookmark. `hrefs` are the server's
 * (features/market/paging.ts pageHrefs), so the page carries no filter codec.
 */
export function Pagination({ info, hrefs, label = "Pagination" }: { info: PageInfo; hrefs: Record<number, string>; label?: string }) {
  const hrefFor = (page: number) => hrefs[page];
  const last = lastPage(info);
  if (last <= 1 && info.page <= 1) return null;
  const item = "inline-flex min-w-9 items-center justify-center rounded-md border px-3 py-1.5 text-sm no-underline";
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-1">
      {info.page > 1 && (
        <Link
          to={hrefFor(Math.min(info.page - 1, last))}
          rel="prev"
          className={`${item} border-space-600 text-slate-100 hover:bg-space-800`}
        >
          Previous
        </Link>
      )}
      {pageWindow(info.page, last).map((n, i) =>
        n === "gap" ? (
          <span key={`gap-${i}`} className="px-1 text-slate-300" aria-hidden="true">
            …
          </span>
        ) : n === info.page ? (
          <span key={n} aria-current="page" className={`${item} border-spark-400 bg-space-800 font-semibold text-white`}>
            <span className="sr-only">Page </span>
            {n}
          </span>
        ) : (
          <Link key={n} to={hrefFor(n)} className={`${item} border-space-600 text-slate-100 hover:bg-space-800`} aria-label={`Page ${n}`}>
            {n}
          </Link>
        ),
      )}
      {info.page < last && (
        <Link to={hrefFor(info.page + 1)} rel="next" className={`${item} border-space-600 text-slate-100 hover:bg-space-800`}>
          Next
        </Link>
      )}
    </nav>
  );
}
