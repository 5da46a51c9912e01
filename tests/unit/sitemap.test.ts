/** robots.txt and the sitemaps (issue 42): an index of files of at most SITEMAP_ITEMS_PER_PAGE URLs, XML escaped. */
import { describe, expect, it } from "vitest";
import {
  SITEMAP_ITEMS_PER_PAGE,
  marketPagesOf,
  publicPagePaths,
  robotsTxt,
  sitemapFile,
  sitemapFiles,
  sitemapIndexXml,
  urlSetXml,
} from "~/features/share/sitemap.server";
import { RESULT_WINDOW } from "~/features/market/filters/paths";
import { MAX_PAGE_SIZE } from "~core/constants";

const SITE = "https://sparkera.example";

describe("sitemaps", () => {
  it("pages the items as the protocol asks (at most 50,000 URLs a file)", () => {
    expect(SITEMAP_ITEMS_PER_PAGE).toBeLessThanOrEqual(50_000);
    expect(sitemapFiles(0)).toEqual(["pages.xml"]);
    expect(sitemapFiles(1)).toEqual(["pages.xml", "items-1.xml"]);
    expect(sitemapFiles(SITEMAP_ITEMS_PER_PAGE)).toEqual(["pages.xml", "items-1.xml"]);
    expect(sitemapFiles(SITEMAP_ITEMS_PER_PAGE + 1)).toEqual(["pages.xml", "items-1.xml", "items-2.xml"]);
    expect(sitemapFiles(RESULT_WINDOW)).toHaveLength(1 + RESULT_WINDOW / SITEMAP_ITEMS_PER_PAGE);
  });

  it("reads an items file from the market pages that hold exactly its items", () => {
    expect(marketPagesOf(1, 1000, 100)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(marketPagesOf(3, 1000, 100)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    const pages = marketPagesOf(2);
    expect(pages).toHaveLength(SITEMAP_ITEMS_PER_PAGE / MAX_PAGE_SIZE);
    expect((pages[0]! - 1) * MAX_PAGE_SIZE).toBe(SITEMAP_ITEMS_PER_PAGE);
  });

  it("escapes the URLs (a market view's & most of all)", () => {
    const xml = urlSetXml([`${SITE}/marketplace/market?nftType=4&sort=price-asc`, `${SITE}/a<b>'"`]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    expect(xml).toContain(`<url><loc>${SITE}/marketplace/market?nftType=4&#38;sort=price-asc</loc></url>`);
    expect(xml).toContain(`<loc>${SITE}/a&#60;b&#62;&#39;&#34;</loc>`);
    const index = sitemapIndexXml([`${SITE}/sitemaps/pages.xml`]);
    expect(index).toContain(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>${SITE}/sitemaps/pages.xml</loc></sitemap>`,
    );
  });

  it("lists the public pages and a market view per type at their canonical URLs", async () => {
    const paths = publicPagePaths();
    expect(paths).toEqual(
      expect.arrayContaining(["/home", "/marketplace/market", "/marketplace/market?nftType=4", "/marketplace/statistics"]),
    );
    expect(new Set(paths).size).toBe(paths.length);
    const response = await sitemapFile(SITE, "pages.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    expect(await response.text()).toContain(`<loc>${SITE}/marketplace/market?nftType=0</loc>`);
  });

  it("has no file past the market's window, nor any other name (404 before any backend read)", async () => {
    for (const file of ["items-0.xml", `items-${RESULT_WINDOW / SITEMAP_ITEMS_PER_PAGE + 1}.xml`, "items-1.txt", "other.xml", undefined]) {
      expect((await sitemapFile(SITE, file)).status, String(file)).toBe(404);
    }
  });

  it("tells crawlers where the sitemap is and keeps them off one person's pages", () => {
    const robots = robotsTxt(SITE);
    expect(robots).toMatch(/^User-agent: \*\n/);
    expect(robots).toContain("Disallow: /marketplace/storage\n");
    expect(robots).not.toMatch(/Disallow: \/og\//);
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml\n`);
  });
});
