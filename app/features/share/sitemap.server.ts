/**
 * robots.txt and the sitemaps (issue 42), by the sitemap protocol: /sitemap.xml is an index of the files under
 * /sitemaps/: pages.xml (the site's public pages and a market view per type) and items-{n}.xml, the listed items'
 * pages, SITEMAP_ITEMS_PER_PAGE to a file (the protocol allows 50,000).
 */
import { BOX_CATALOGUE } from "~core/boxes";
import { MAX_PAGE_SIZE } from "~core/constants";
import { NFT_TYPES, type NftTypeCode } from "~core/nft";
import { STAKE_POOLS } from "~core/pools";
import { escapeXml } from "~core/xml";
import { defaultMarketFilter } from "~/features/market/filters/market-options";
import { toMarketQuery, typeHref } from "~/features/market/filters/market";
import { RESULT_WINDOW } from "~/features/market/filters/paths";
import { backendProblem, publicApis } from "~/services/apis.server";
import { itemCanonicalSearch } from "./item-share.server";

/** Item URLs per sitemap file: ten market pages of MAX_PAGE_SIZE, so one file costs ten backend reads. */
export const SITEMAP_ITEMS_PER_PAGE = 1000;
const XML = "application/xml; charset=utf-8";
const CACHE = "public, max-age=3600";

/** The site's public pages (those a visitor sees without signing in), by path. */
export function publicPagePaths(): string[] {
  const types = Object.keys(NFT_TYPES).map((code) => typeHref(Number(code) as NftTypeCode));
  return [
    "/home",
    "/game",
    "/marketplace/market",
    ...types,
    "/marketplace/statistics",
    "/loyalty",
    ...STAKE_POOLS.map((pool) => `/loyalty/page/${pool.id}`),
    ...BOX_CATALOGUE.map((box) => `/lootbox/${box.typeBox}`),
    "/spaceship/calculator",
  ];
}

export function urlSetXml(urls: readonly string[]): string {
  const entries = urls.map((url) => `<url><loc>${escapeXml(url)}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

export function sitemapIndexXml(urls: readonly string[]): string {
  const entries = urls.map((url) => `<sitemap><loc>${escapeXml(url)}</loc></sitemap>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
}

/** The files of the index: pages.xml, then one items file per SITEMAP_ITEMS_PER_PAGE listed items. */
export function sitemapFiles(listedItems: number, perPage = SITEMAP_ITEMS_PER_PAGE): string[] {
  const itemFiles = Math.ceil(listedItems / perPage);
  return ["pages.xml", ...Array.from({ length: itemFiles }, (_, i) => `items-${i + 1}.xml`)];
}

/** The market pages (1-based, `pageSize` records each) that hold sitemap file `file`'s items. */
export function marketPagesOf(file: number, perPage = SITEMAP_ITEMS_PER_PAGE, pageSize = MAX_PAGE_SIZE): number[] {
  const first = ((file - 1) * perPage) / pageSize + 1;
  return Array.from({ length: Math.ceil(perPage / pageSize) }, (_, i) => first + i);
}

export function robotsTxt(site: string): string {
  // Pages for one signed-in person, forms' endpoints and one-time links: nothing there for a search engine.
  const closed = [
    "/resources/",
    "/actions/",
    "/stripe/",
    "/marketplace/storage",
    "/marketplace/inbox",
    "/marketplace/watches",
    "/logout",
    "/lite",
  ];
  return `User-agent: *\n${closed.map((path) => `Disallow: ${path}\n`).join("")}\nSitemap: ${site}/sitemap.xml\n`;
}

const xmlResponse = (body: string) => new Response(body, { headers: { "Content-Type": XML, "Cache-Control": CACHE } });
const notFound = () => new Response("No such sitemap.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** The market's listings, as the market page lists them (a view of every type, newest first). */
function listings(pageNumber: number, pageSize: number) {
  return publicApis().market.tradingMarket(toMarketQuery({ ...defaultMarketFilter(), page: pageNumber, pageSize }));
}

/** A backend failure as a 503 crawlers retry later, never a 500 nor an empty sitemap that drops every item. */
function unavailable(error: unknown): Response {
  const problem = backendProblem(error);
  return new Response(problem.message, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "300" } });
}

export async function sitemapIndex(site: string): Promise<Response> {
  try {
    const { total } = await listings(1, 1);
    return xmlResponse(sitemapIndexXml(sitemapFiles(total).map((file) => `${site}/sitemaps/${file}`)));
  } catch (error) {
    return unavailable(error);
  }
}

export async function sitemapFile(site: string, file: string | undefined): Promise<Response> {
  if (file === "pages.xml") return xmlResponse(urlSetXml(publicPagePaths().map((path) => `${site}${path}`)));
  const number = /^items-([1-9]\d{0,3})\.xml$/.exec(file ?? "")?.[1];
  // The market answers RESULT_WINDOW records deep: no file lies past it.
  if (!number || Number(number) > Math.ceil(RESULT_WINDOW / SITEMAP_ITEMS_PER_PAGE)) return notFound();
  try {
    const pages = await Promise.all(marketPagesOf(Number(number)).map((page) => listings(page, MAX_PAGE_SIZE)));
    const records = pages.flatMap((page) => page.records);
    // A file past the last one is not there (an empty urlset is invalid).
    if (!records.length) return notFound();
    return xmlResponse(urlSetXml(records.map((record) => `${site}/marketplace/detail?${itemCanonicalSearch(record)}`)));
  } catch (error) {
    return unavailable(error);
  }
}
