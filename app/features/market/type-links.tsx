import { PillNav, type PillNavItem } from "~/components/pill-nav";

/** "All" and each item type as links (the server's typeLinks): the type is a navigation, not a field. */
export function TypeLinks({ label, links }: { label: string; links: PillNavItem[] }) {
  return <PillNav label={label} items={links} />;
}
