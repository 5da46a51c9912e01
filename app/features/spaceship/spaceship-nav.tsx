import { NavLink } from "@remix-run/react";

export const SPACESHIP_SECTIONS = [
  { slug: "storehouse", label: "Storehouse" },
  { slug: "detail", label: "Detail" },
  { slug: "configuration", label: "Configuration" },
  { slug: "upgrade", label: "Upgrade" },
  { slug: "exploration", label: "Exploration" },
  { slug: "calculator", label: "Calculators" },
] as const;

export function SpaceshipNav() {
  return (
    <nav aria-label="Spaceship sections" className="-mx-1 flex gap-1 overflow-x-auto">
      {SPACESHIP_SECTIONS.map((section) => (
        <NavLink
          key={section.slug}
          to={`/spaceship/${section.slug}`}
          className={({ isActive }) =>
            `whitespace-nowrap rounded-md px-3 py-2 text-sm no-underline ${isActive ? "bg-space-700 text-white" : "text-slate-200 hover:bg-space-800"}`
          }
        >
          {section.label}
        </NavLink>
      ))}
    </nav>
  );
}
