/** The one builder of every page's head tags (issue 42): canonical, Open Graph and Twitter card, absolute URLs. */
import fs from "node:fs";
import path from "node:path";
import type { MetaDescriptor } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { DEFAULT_DESCRIPTION, itemImagePath, pageMeta } from "~/features/share/page-meta";
import { parseMarketFilter, serializeMarketFilter } from "~/features/market/filters/market";

const SITE = "https://sparkera.example";
const args = (pathname: string) => ({ location: { pathname }, matches: [{ id: "root", data: { env: { siteUrl: SITE } } }] });

/** The tags as name → content, and the canonical link's href. */
function tags(meta: MetaDescriptor[]) {
  const byKey = new Map<string, string>();
  for (const tag of meta) {
    if ("title" in tag) byKey.set("title", String(tag.title));
    if ("name" in tag && "content" in tag) byKey.set(String(tag.name), String(tag.content));
    if ("property" in tag && "content" in tag) byKey.set(String(tag.property), String(tag.content));
    if ("tagName" in tag && tag.rel === "canonical") byKey.set("canonical", String(tag.href));
  }
  return byKey;
}

describe("pageMeta", () => {
  it("gives a page without its own words the site's title, description and preview image, all URLs absolute", () => {
    const meta = tags(pageMeta(args("/home")));
    expect(meta.get("title")).toBe("Spark Era");
    expect(meta.get("description")).toBe(DEFAULT_DESCRIPTION);
    expect(meta.get("canonical")).toBe(`${SITE}/home`);
    expect(meta.get("og:url")).toBe(`${SITE}/home`);
    expect(meta.get("og:title")).toBe("Spark Era");
    expect(meta.get("og:type")).toBe("website");
    expect(meta.get("og:description")).toBe(DEFAULT_DESCRIPTION);
    expect(meta.get("og:image")).toBe(`${SITE}/og/site.png`);
    expect(meta.get("twitter:card")).toBe("summary_large_image");
    expect(meta.has("robots")).toBe(false);
  });

  it("names the page in its title and uses its description, preview image and JSON-LD", () => {
    const jsonLd = { "@context": "https://schema.org", "@type": "Product", name: "Epic Cruiser #7" };
    const image = itemImagePath({ nftType: 4, tokenId: "7" });
    const meta = pageMeta(args("/marketplace/detail"), {
      title: "Epic Cruiser #7 · Item detail",
      description: "A ship.",
      canonicalSearch: "nftType=4&tokenId=7",
      image,
      jsonLd,
    });
    const byKey = tags(meta);
    expect(byKey.get("title")).toBe("Epic Cruiser #7 · Item detail | Spark Era");
    expect(byKey.get("og:title")).toBe("Epic Cruiser #7 · Item detail");
    expect(byKey.get("description")).toBe("A ship.");
    expect(byKey.get("canonical")).toBe(`${SITE}/marketplace/detail?nftType=4&tokenId=7`);
    expect(byKey.get("og:image")).toBe(`${SITE}/og/item/4/7.png`);
    expect(meta).toContainEqual({ "script:ld+json": jsonLd });
  });

  it("makes a market view's canonical URL its canonical filter (sorted keys, no defaults, no page=1)", () => {
    const { filter } = parseMarketFilter(new URLSearchParams("sort=price-asc&page=1&nftType=4&pageSize=10"));
    const meta = tags(pageMeta(args("/marketplace/market"), { title: "Market", canonicalSearch: serializeMarketFilter(filter) }));
    expect(meta.get("canonical")).toBe(`${SITE}/marketplace/market?nftType=4&sort=price-asc`);
  });

  it("keeps pages for one visitor out of search results", () => {
    expect(tags(pageMeta(args("/marketplace/storage"), { title: "Storage", noindex: true })).get("robots")).toBe("noindex");
  });

  it("is what every route's meta returns (Remix takes the deepest route's meta alone)", () => {
    const routes = fs.readdirSync("app/routes").map((dir) => path.join("app/routes", dir, "route.tsx"));
    const withMeta = routes.filter((file) => fs.existsSync(file) && fs.readFileSync(file, "utf8").includes("export const meta"));
    expect(withMeta.length).toBeGreaterThan(25);
    for (const file of [...withMeta, "app/root.tsx"])
      expect(fs.readFileSync(file, "utf8"), file).toMatch(/export const meta[^=]*= \(args\) =>\s*(\{[^]*?return )?pageMeta\(args/);
  });
});
