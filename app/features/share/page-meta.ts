/**
 * Every page's head tags for search engines and link previews (issue 42): title, description, canonical URL, Open
 * Graph and Twitter card, and JSON-LD when the page has some. One builder, because Remix uses the deepest route's
 * `meta` alone (a parent's tags are not merged in): each route's `meta` returns this whole set.
 */
import type { MetaDescriptor } from "@remix-run/node";

export const SITE_NAME = "Spark Era";
export const DEFAULT_DESCRIPTION = "Spark Era: the blockchain space game and its NFT marketplace on BNB Smart Chain.";
export const MARKETPLACE_DESCRIPTION = "Buy and sell Spark Era hero cards, spaceships, loot boxes and more, in the game or on chain.";
export const MARKET_DESCRIPTION = "Spark Era items for sale: filter by type, camp, rarity, level and price.";
/** The preview image of a page without its own: a PNG, as link previews do not show SVG. */
export const SITE_IMAGE_PATH = "/og/site.png";

/** Site path of an item's preview image (routes/og.item.$nftType.$file). */
export function itemImagePath(ref: { nftType: number; tokenId: string }): string {
  return `/og/item/${ref.nftType}/${ref.tokenId}.png`;
}

export interface PageMeta {
  /** The page's own title, without the site's name; none for the site itself. */
  title?: string;
  description?: string;
  /** The canonical query string, without "?" (a market view's canonical filter); none: the path alone is canonical. */
  canonicalSearch?: string;
  /** Site path of the page's PNG preview (1200×630). */
  image?: string;
  type?: "website" | "profile";
  /** Kept out of search results (a page for one visitor, a page that is not there). */
  noindex?: boolean;
  /** schema.org data of the page (JSON-LD); Remix's <Meta> escapes "<" in it. */
  jsonLd?: Record<string, unknown> | null;
}

/** What pageMeta reads of Remix's meta arguments: the page's path and the root loader's site URL. */
export interface MetaContext {
  location: { pathname: string };
  matches: readonly { id: string; data: unknown }[];
}

/** The site's absolute URL, no trailing slash, as the root loader sends it (empty when the root has no data). */
export function siteUrl(matches: MetaContext["matches"]): string {
  const data = matches.find((match) => match.id === "root")?.data as { env?: { siteUrl?: unknown } } | undefined;
  return typeof data?.env?.siteUrl === "string" ? data.env.siteUrl : "";
}

export function pageMeta({ location, matches }: MetaContext, page: PageMeta = {}): MetaDescriptor[] {
  const site = siteUrl(matches);
  const title = page.title ? `${page.title} | ${SITE_NAME}` : SITE_NAME;
  const description = page.description ?? DEFAULT_DESCRIPTION;
  const url = `${site}${location.pathname}${page.canonicalSearch ? `?${page.canonicalSearch}` : ""}`;
  const image = `${site}${page.image ?? SITE_IMAGE_PATH}`;
  return [
    { title },
    { name: "description", content: description },
    ...(page.noindex ? [{ name: "robots", content: "noindex" }] : []),
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: page.title ?? SITE_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:url", content: url },
    { property: "og:description", content: description },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { name: "twitter:card", content: "summary_large_image" },
    ...(page.jsonLd ? [{ "script:ld+json": page.jsonLd }] : []),
  ];
}
