import { Link } from "@remix-run/react";
import { MARKET_PATH } from "~/features/market/filters/paths";
import type { Chip } from "~/features/market/filters/chips";

/** One link per active filter value; following it removes just that value. `chips` are the server's (filterChips). */
export function FilterChips({ chips }: { chips: Chip[] }) {
  if (!chips.length) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h2 className="sr-only">Active filters</h2>
      <ul className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <li key={chip.label}>
            <Link
              to={chip.href}
              aria-label={`Remove filter ${chip.label}`}
              className="inline-flex items-center gap-1 rounded-full border border-space-600 bg-space-800 px-3 py-1 text-xs text-slate-100 no-underline hover:border-spark-400"
            >
              {chip.label}
              <span aria-hidden="true" className="text-slate-300">
                ✕
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {chips.length > 1 && (
        <Link to={MARKET_PATH} className="text-xs">
          Clear all
        </Link>
      )}
    </div>
  );
}
