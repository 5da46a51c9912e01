import { NavLink } from "@remix-run/react";

export const SPACESHIP_SECTIONS = [
  { slug: "storehouse", label: "Storehouse" },
  { slug: "detail", label: "Detail" },
  { slug: "configuration", label: "Configuration" },
  { slug: "upgrade", label: "Upgrade" },
  { slug: "exploration", label: "Exploration" },
  { slug: "calculator", label: "Calculators" },
] as const;

/** Three a row on a phone, one row from `sm`: every section in view, none scrolled off past the window's edge. */
export function SpaceshipNav() {
  return (
    <nav aria-label="Spaceship sections" className="-mx-1 grid grid-cols-3 gap-1 sm:flex">
      {SPACESHIP_SECTIONS.map((section) => (
        <NavLink
          key={section.slug}
          to={`/spaceship/${section.slug}`}
          className={({ isActive }) =>
            `whitespace-nowrap rounded-md px-2 py-2 text-center text-sm no-underline sm:px-3 ${isActive ? "bg-space-700 text-white" : "text-slate-200 hover:bg-space-800"}`
          }
        >
          {section.label}
        </NavLink>
      ))}
    </nav>
  );
}
