import { type MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Marketplace | Spark Era" }];

const TABS = [
  { to: "/marketplace", label: "Overview", end: true },
  { to: "/marketplace/market", label: "Market", end: false },
  { to: "/marketplace/statistics", label: "Statistics", end: false },
  { to: "/marketplace/storage", label: "Storage", end: false },
] as const;

export default function MarketplaceLayout() {
  return (
    <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-5">
      <nav aria-label="Marketplace" className="-mx-1 flex gap-1 overflow-x-auto border-b border-space-800">
        {TABS.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end={tab.end}
            prefetch="intent"
            className={({ isActive }) =>
              `-mb-px whitespace-nowrap border-b-2 px-4 py-3 text-sm font-semibold no-underline ${
                isActive ? "border-spark-400 text-white" : "border-transparent text-slate-300 hover:text-white"
              }`
            }
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
