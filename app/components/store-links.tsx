import type { PublicEnv } from "~/services/env.server";

/** The game's download links (product §9 store links), from configuration. */
export function StoreLinks({ stores }: { stores: PublicEnv["stores"] }) {
  const links = [
    { href: stores.android, label: "Android" },
    { href: stores.ios, label: "iOS" },
    { href: stores.googlePlay, label: "Google Play" },
  ];
  return (
    <ul className="mt-3 flex flex-wrap gap-3">
      {links.map((link) => (
        <li key={link.label}>
          <a className="btn-secondary" href={link.href}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
