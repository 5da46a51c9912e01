/**
 * Issue 42, link previews and search engines: every page's head has a title, a description, an absolute self
 * canonical, Open Graph and a Twitter card; an item's preview is a 1200×630 PNG; a listed item carries a schema.org
 * Product/Offer; robots.txt and the sitemaps answer with their types.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

const PLAYER = "/player/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/** The content of the one head tag matching `selector` (exactly one: the root renders one set, the deepest loader's). */
async function one(page: Page, selector: string, attribute = "content"): Promise<string> {
  const tags = page.locator(`head ${selector}`);
  await expect(tags, selector).toHaveCount(1);
  const value = await tags.getAttribute(attribute);
  expect(value?.trim(), selector).toBeTruthy();
  return value!;
}

/** Path and query of an absolute URL, after checking it is one. */
function local(url: string): string {
  const parsed = new URL(url);
  expect(parsed.protocol).toMatch(/^https?:$/);
  return parsed.pathname + parsed.search;
}

/** Opens `path` and checks its share tags; returns the og:image's path. `canonical` defaults to the page's path. */
async function expectShareTags(page: Page, path: string, canonical?: string): Promise<string> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  expect(await page.title(), path).toMatch(/Spark Era$/);
  await one(page, 'meta[name="description"]');
  const href = await one(page, 'link[rel="canonical"]', "href");
  expect(local(href), path).toBe(canonical ?? new URL(page.url()).pathname);
  expect(await one(page, 'meta[property="og:url"]'), path).toBe(href);
  await one(page, 'meta[property="og:title"]');
  await one(page, 'meta[property="og:type"]');
  await one(page, 'meta[property="og:description"]');
  expect(await one(page, 'meta[name="twitter:card"]')).toBe("summary_large_image");
  const image = local(await one(page, 'meta[property="og:image"]'));
  expect(image, path).toMatch(/^\/og\/.+\.png$/);
  return image;
}

/** The PNG's width and height, read from its IHDR chunk after checking the signature. */
async function expectPng(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/png");
  const png = await response.body();
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({ width: 1200, height: 630 });
  return response;
}

/** The item pages the market's first page links to. */
async function firstPageItems(page: Page): Promise<string[]> {
  await page.goto("/marketplace/market");
  const links = page.getByRole("list", { name: "Items on sale" }).locator('a[href^="/marketplace/detail?"]');
  const hrefs = [...new Set(await links.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("href")!)))];
  expect(hrefs.length).toBeGreaterThan(0);
  return hrefs;
}

test("the main pages carry the share tags, each canonical on its own URL", async ({ page, request }) => {
  for (const path of ["/home", "/marketplace/market", "/marketplace/statistics", PLAYER, "/login"]) {
    const image = await expectShareTags(page, path);
    expect(image).toBe("/og/site.png");
  }
  await expectPng(request, "/og/site.png");
});

test("a market view's canonical is its canonical filter URL", async ({ page }) => {
  await expectShareTags(
    page,
    "/marketplace/market?sort=price-asc&page=1&nftType=4&pageSize=10",
    "/marketplace/market?nftType=4&sort=price-asc",
  );
});

test("every item of the market's first page has its share tags, PNG preview and Product offer", async ({ page, request }) => {
  test.setTimeout(120_000);
  for (const href of await firstPageItems(page)) {
    const ref = new URL(href, "http://site").searchParams;
    const canonical = `/marketplace/detail?nftType=${ref.get("nftType")}&tokenId=${ref.get("tokenId")}`;
    const image = await expectShareTags(page, href, canonical);
    expect(image).toBe(`/og/item/${ref.get("nftType")}/${ref.get("tokenId")}.png`);
    expect(await page.title()).toContain(await page.getByRole("heading", { level: 2 }).first().innerText());

    // Listed: a Product whose Offer is the page's price, as exact decimal text.
    const ld = page.locator('script[type="application/ld+json"]');
    await expect(ld).toHaveCount(1);
    const product = JSON.parse((await ld.textContent())!) as { "@type": string; offers: Record<string, string> };
    expect(product["@type"]).toBe("Product");
    const shown = /^On sale for ([\d,.]+) ([A-Z]+)/.exec(await page.getByText(/^On sale for /).innerText());
    expect(product.offers).toMatchObject({
      "@type": "Offer",
      price: shown![1]!.replaceAll(",", ""),
      priceCurrency: shown![2],
      availability: "https://schema.org/InStock",
    });
    await expectPng(request, image);
  }
});

test("an item's PNG is cached by ETag, and a preview of no item is a 404", async ({ page, request }) => {
  const [href] = await firstPageItems(page);
  const ref = new URL(href!, "http://site").searchParams;
  const first = await expectPng(request, `/og/item/${ref.get("nftType")}/${ref.get("tokenId")}.png`);
  const etag = first.headers()["etag"]!;
  expect(first.headers()["cache-control"]).toMatch(/^public, max-age=\d+$/);
  // Another site's page may show it (a page's same-origin CORP would block it there).
  expect(first.headers()["cross-origin-resource-policy"]).toBe("cross-origin");
  const again = await request.get(`/og/item/${ref.get("nftType")}/${ref.get("tokenId")}.png`, { headers: { "If-None-Match": etag } });
  expect(again.status()).toBe(304);
  for (const path of ["/og/item/4/999999999.png", "/og/item/9/1.png", "/og/item/4/abc.png", "/og/item/4/1.svg"]) {
    expect((await request.get(path)).status(), path).toBe(404);
  }
});

test("robots.txt and the sitemap index and files answer with their types", async ({ page, request }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(await robots.text()).toMatch(/^Sitemap: https?:\/\/[^/]+\/sitemap\.xml$/m);

  const index = await request.get("/sitemap.xml");
  expect(index.status()).toBe(200);
  expect(index.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  const files = [...(await index.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => local(match[1]!));
  expect(files).toEqual(expect.arrayContaining(["/sitemaps/pages.xml", "/sitemaps/items-1.xml"]));

  const items = await request.get("/sitemaps/items-1.xml");
  expect(items.status()).toBe(200);
  expect(items.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  const urls = [...(await items.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => local(match[1]!.replaceAll("&#38;", "&")));
  const [href] = await firstPageItems(page);
  const ref = new URL(href!, "http://site").searchParams;
  expect(urls).toContain(`/marketplace/detail?nftType=${ref.get("nftType")}&tokenId=${ref.get("tokenId")}`);

  const pages = await request.get("/sitemaps/pages.xml");
  expect(pages.status()).toBe(200);
  expect(await pages.text()).toContain("/marketplace/market?nftType=4</loc>");
  expect((await request.get(`/sitemaps/items-${files.length}.xml`)).status()).toBe(404);
});
