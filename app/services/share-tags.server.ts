/**
 * Every page's share tags for search engines and link previews (issue 42): description, an absolute canonical URL,
 * Open Graph, the Twitter card, and JSON-LD when the page has some. Built on the server and sent as loader data: the
 * root's loader writes the site's for every URL, and a page with more to say (an item, a market view, a player)
 * writes its own in its loader; root.tsx renders the deepest set. Built here, no page ships a builder (the pages sit
 * at their 100 KB JavaScript budget).
 */
import { getEnv } from "./env.server";

/** One head tag as root.tsx renders it: its element and attributes. */
export type ShareTag = ["meta" | "link" | "script", Record<string, string | { __html: string }>];

export const SITE_NAME = "Spark Era";
export const DEFAULT_DESCRIPTION = "Spark Era: the blockchain space game and its NFT marketplace on BNB Smart Chain.";
export const MARKET_DESCRIPTION = "Spark Era items for sale: filter by type, camp, rarity, level and price.";
/** The preview image of a page without its own: a PNG, as link previews do not show SVG. */
export const SITE_IMAGE_PATH = "/og/site.png";

/** The site's absolute URL without a trailing slash (PUBLIC_URL). */
export function siteUrl(): string {
  return getEnv().publicUrl.replace(/\/+$/, "");
}

/** Site path of an item's preview image (routes/og.item.$nftType.$file). */
export function itemImagePath(ref: { nftType: number; tokenId: string }): string {
  return `/og/item/${ref.nftType}/${ref.tokenId}.png`;
}

export interface PageShare {
  /** The page's own title for previews; none: the site's name. */
  title?: string;
  description?: string;
  /** The canonical query string, without "?" (a market view's canonical filter); none: the path alone is canonical. */
  canonicalSearch?: string;
  /** Site path of the page's PNG preview (1200×630). */
  image?: string;
  type?: "website" | "profile";
  /** schema.org data of the page. */
  jsonLd?: Record<string, unknown> | null;
}

/** JSON inside a <script> element: "<" and the like as escapes, so no text in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function shareTags(site: string, pathname: string, page: PageShare = {}): ShareTag[] {
  const description = page.description ?? DEFAULT_DESCRIPTION;
  const url = `${site}${pathname}${page.canonicalSearch ? `?${page.canonicalSearch}` : ""}`;
  const og = (property: string, content: string): ShareTag => ["meta", { property: `og:${property}`, content }];
  return [
    ["meta", { name: "description", content: description }],
    ["link", { rel: "canonical", href: url }],
    og("site_name", SITE_NAME),
    og("title", page.title ?? SITE_NAME),
    og("type", page.type ?? "website"),
    og("url", url),
    og("description", description),
    og("image", `${site}${page.image ?? SITE_IMAGE_PATH}`),
    og("image:width", "1200"),
    og("image:height", "630"),
    ["meta", { name: "twitter:card", content: "summary_large_image" }],
    ...(page.jsonLd
      ? [["script", { type: "application/ld+json", dangerouslySetInnerHTML: { __html: scriptJson(page.jsonLd) } }] as ShareTag]
      : []),
  ];
}

/** The share tags of the page `request` asks for. */
export function shareFor(request: Request, page: PageShare = {}): ShareTag[] {
  return shareTags(siteUrl(), new URL(request.url).pathname, page);
}
