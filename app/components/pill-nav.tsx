import { Link } from "@remix-run/react";

export interface PillNavItem {
  href: string;
  label: string;
  current: boolean;
}

/**
 * Whole class names, so Tailwind finds them. A look other than the pills is declared where it is used: the
 * bundler splits by file, so it then reaches only the pages that show it.
 */
export interface PillNavLook {
  list: string;
  link: string;
  current: string;
  other: string;
}

/** Rounded pills: for a filter such as the item type. */
const PILLS: PillNavLook = {
  list: "flex flex-wrap gap-2",
  link: "inline-block rounded-full border px-3 py-1 text-sm no-underline",
  current: "border-spark-400 bg-spark-500 font-semibold text-space-950",
  other: "border-space-600 text-slate-100 hover:bg-space-800",
};

/**
 * A row of links where one is the view shown: plain links, so they work without JavaScript, and the current
 * one carries aria-current="page".
 */
export function PillNav({ label, items, look = PILLS }: { label: string; items: readonly PillNavItem[]; look?: PillNavLook }) {
  return (
    <nav aria-label={label}>
      <ul className={look.list}>
        {items.map((item) => (
          <li key={item.label}>
            <Link
              to={item.href}
              aria-current={item.current ? "page" : undefined}
              className={`${look.link} ${item.current ? look.current : look.other}`}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
