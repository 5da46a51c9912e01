/** Every page's share tags (issue 42): canonical, Open Graph and Twitter card with absolute URLs, built on the server. */
import { describe, expect, it } from "vitest";
import { DEFAULT_DESCRIPTION, itemImagePath, scriptJson, shareTags, type ShareTag } from "~/services/share-tags.server";
import { parseMarketFilter, serializeMarketFilter } from "~/features/market/filters/market";

const SITE = "https://sparkera.example";

/** The tags as name → content, and the canonical link's href. */
function byKey(tags: ShareTag[]) {
  const map = new Map<string, unknown>();
  for (const [element, attributes] of tags) {
    if (element === "link") map.set(String(attributes.rel), attributes.href);
    else if (element === "script") map.set(String(attributes.type), attributes.dangerouslySetInnerHTML);
    else map.set(String(attributes.name ?? attributes.property), attributes.content);
  }
  return map;
}

describe("shareTags", () => {
  it("gives a page without its own words the site's description and preview image, all URLs absolute", () => {
    const tags = byKey(shareTags(SITE, "/home"));
    expect(tags.get("description")).toBe(DEFAULT_DESCRIPTION);
    expect(tags.get("canonical")).toBe(`${SITE}/home`);
    expect(tags.get("og:url")).toBe(`${SITE}/home`);
    expect(tags.get("og:title")).toBe("Spark Era");
    expect(tags.get("og:type")).toBe("website");
    expect(tags.get("og:description")).toBe(DEFAULT_DESCRIPTION);
    expect(tags.get("og:image")).toBe(`${SITE}/og/site.png`);
    expect(tags.get("twitter:card")).toBe("summary_large_image");
    expect(tags.has("application/ld+json")).toBe(false);
  });

  it("uses the page's title, description, canonical query, preview image and JSON-LD", () => {
    const tags = byKey(
      shareTags(SITE, "/marketplace/detail", {
        title: "Epic Cruiser #7",
        description: "A ship.",
        canonicalSearch: "nftType=4&tokenId=7",
        image: itemImagePath({ nftType: 4, tokenId: "7" }),
        jsonLd: { "@type": "Product", name: "Epic Cruiser #7" },
      }),
    );
    expect(tags.get("og:title")).toBe("Epic Cruiser #7");
    expect(tags.get("description")).toBe("A ship.");
    expect(tags.get("canonical")).toBe(`${SITE}/marketplace/detail?nftType=4&tokenId=7`);
    expect(tags.get("og:image")).toBe(`${SITE}/og/item/4/7.png`);
    expect(tags.get("application/ld+json")).toEqual({ __html: '{"@type":"Product","name":"Epic Cruiser #7"}' });
  });

  it("makes a market view's canonical URL its canonical filter (sorted keys, no defaults, no page=1)", () => {
    const { filter } = parseMarketFilter(new URLSearchParams("sort=price-asc&page=1&nftType=4&pageSize=10"));
    const tags = byKey(shareTags(SITE, "/marketplace/market", { canonicalSearch: serializeMarketFilter(filter) }));
    expect(tags.get("canonical")).toBe(`${SITE}/marketplace/market?nftType=4&sort=price-asc`);
  });

  it("writes JSON-LD that no text can close its <script> with, and that parses back the same", () => {
    const value = { name: "</script><script>alert(1)</script> & \u2028" };
    const text = scriptJson(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
