import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { ItemCardModel } from "./market-views";

/** One item: picture, name, grade, a few attributes by name, and its price when on sale. */
/** The item's type and grade (rarity, rank…), shown on cards and on the detail page. */
export function ItemBadges({ item, className = "" }: { item: Pick<ItemCardModel, "typeLabel" | "grade">; className?: string }) {
  return (
    <p className={`flex flex-wrap gap-2 text-xs ${className}`}>
      <span className="rounded bg-space-800 px-2 py-0.5 text-slate-200">{item.typeLabel}</span>
      {item.grade && (
        <span className="rounded bg-space-700 px-2 py-0.5 font-semibold text-nebula-300">
          <span className="sr-only">{item.grade.label}: </span>
          {item.grade.value}
        </span>
      )}
    </p>
  );
}

/** The cards a phone or a desktop row shows first load at once: one of them is the page's largest picture. */
const EAGER_CARDS = 4;

/**
 * `footer`: what a page adds under a card (storage: the move to or from the chain), so the market carries none of it.
 * `plainLinks`: the name is a plain link, for markup rendered outside the router (the market's grid as server markup,
 * features/market/item-grid.server.tsx, whose clicks ServerHtml hands to the router).
 */
export function ItemCard({
  item,
  eager = false,
  footer,
  plainLinks = false,
}: {
  item: ItemCardModel;
  eager?: boolean;
  footer?: ReactNode;
  plainLinks?: boolean;
}) {
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-lg border border-space-700 bg-space-950">
      <img
        src={item.image}
        alt=""
        width={320}
        height={320}
        loading={eager ? "eager" : "lazy"}
        className="aspect-square w-full bg-space-900 object-contain p-4"
      />
      {/* On the picture's corner, clear of the name, the price and any button below it. */}
      {item.venue && (
        <p className="absolute left-2 top-2 rounded bg-space-950/90 px-2 py-0.5 text-xs font-semibold text-slate-100">{item.venue}</p>
      )}
      <div className="flex flex-1 flex-col gap-2 p-3">
        <ItemBadges item={item} className="items-center" />
        <h3 className="text-sm font-semibold leading-snug text-white">
          {/* The whole card is one link target; the name carries its accessible text. */}
          {plainLinks ? (
            <a href={item.href} className="text-white no-underline hover:underline">
              {item.name}
            </a>
          ) : (
            <Link to={item.href} prefetch="intent" className="text-white no-underline hover:underline">
              {item.name}
            </Link>
          )}
        </h3>
        {item.attributes.length > 0 && (
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-0.5 text-xs">
            {item.attributes.map((attribute) => (
              <div key={attribute.label} className="contents">
                <dt className="text-slate-300">{attribute.label}</dt>
                <dd className="hyphens-auto break-words text-slate-100">{attribute.value}</dd>
              </div>
            ))}
          </dl>
        )}
        <p className="mt-auto pt-1 text-sm font-semibold text-spark-300">
          {item.price ?? <span className="font-normal text-slate-300">Not for sale</span>}
        </p>
        <p className="text-xs text-slate-300">
          {item.favorites} {item.favorites === 1 ? "favorite" : "favorites"} · {item.views} {item.views === 1 ? "view" : "views"}
        </p>
        {footer}
      </div>
    </article>
  );
}

export function ItemGrid({
  items,
  label,
  footer,
  plainLinks,
}: {
  items: ItemCardModel[];
  label: string;
  footer?: (item: ItemCardModel) => ReactNode;
  plainLinks?: boolean;
}) {
  return (
    <ul aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
      {items.map((item, index) => (
        <li key={item.key}>
          <ItemCard item={item} eager={index < EAGER_CARDS} footer={footer?.(item)} plainLinks={plainLinks} />
        </li>
      ))}
    </ul>
  );
}
