/** An item page's schema.org Product/Offer (issue 42): the exact decimal price of the wei, never a float. */
import { describe, expect, it } from "vitest";
import { itemShare, productJsonLd, type SharedItem } from "~/features/share/item-share.server";

const SITE = "https://sparkera.example";
const listed: SharedItem = {
  tokenId: "42",
  nftType: 4,
  name: "Epic Cruiser #42",
  typeLabel: "Spaceships",
  grade: { label: "Rank", value: "Epic" },
  price: "1,234.500000000000000001 FIRE",
  // Past 2^53 and with a last wei a float would lose.
  priceWei: "1234500000000000000001",
  currency: "FIRE",
};

describe("productJsonLd", () => {
  it("offers a listed item at its exact price, in its token, in stock, with absolute URLs", () => {
    expect(productJsonLd(listed, SITE)).toEqual({
      "@context": "https://schema.org",
      "@type": "Product",
      name: "Epic Cruiser #42",
      description: "Epic Cruiser #42, Spaceships · Rank: Epic. For sale at 1,234.500000000000000001 FIRE on the Spark Era marketplace.",
      image: `${SITE}/og/item/4/42.png`,
      url: `${SITE}/marketplace/detail?nftType=4&tokenId=42`,
      sku: "4-42",
      category: "Spaceships",
      offers: {
        "@type": "Offer",
        url: `${SITE}/marketplace/detail?nftType=4&tokenId=42`,
        price: "1234.500000000000000001",
        priceCurrency: "FIRE",
        availability: "https://schema.org/InStock",
      },
    });
  });

  it("writes whole and tiny prices without exponent, grouping or trailing zeros", () => {
    const price = (priceWei: string) => (productJsonLd({ ...listed, priceWei }, SITE)?.offers as { price: string }).price;
    expect(price("3000000000000000000000000")).toBe("3000000");
    expect(price("1")).toBe("0.000000000000000001");
    expect(price("2500000000000000000")).toBe("2.5");
  });

  it("has no Product for an item not for sale (an Offer needs a price)", () => {
    expect(productJsonLd({ ...listed, price: null, priceWei: null, currency: null }, SITE)).toBeNull();
  });

  it("gives the item page its share tags: its own PNG, canonical without the back link, a description", () => {
    const tags = itemShare({ ...listed, price: null, priceWei: null, currency: null }, SITE);
    expect(tags).toContainEqual(["link", { rel: "canonical", href: `${SITE}/marketplace/detail?nftType=4&tokenId=42` }]);
    expect(tags).toContainEqual(["meta", { property: "og:image", content: `${SITE}/og/item/4/42.png` }]);
    expect(tags).toContainEqual([
      "meta",
      { name: "description", content: "Epic Cruiser #42, Spaceships · Rank: Epic. Not for sale now on the Spark Era marketplace." },
    ]);
    expect(tags.some(([element]) => element === "script")).toBe(false);
    expect(itemShare(listed, SITE).filter(([element]) => element === "script")).toHaveLength(1);
  });
});
