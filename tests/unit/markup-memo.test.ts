/**
 * Decision 0037: the market's grid of cards is rendered once per content. The memo is keyed by the view's whole input,
 * bounded, least recently used first out; the grid's markup is the cards' (plain links the router is handed).
 */
import { describe, expect, it } from "vitest";
import { MarkupMemo } from "~/services/markup-memo.server";
import { itemGridHtml } from "~/features/market/item-grid.server";
import type { ItemCardModel } from "~/features/market/market-views";

describe("MarkupMemo", () => {
  it("renders a key once, and again only after it was pushed out by newer ones", () => {
    const memo = new MarkupMemo(2);
    const renders: string[] = [];
    const render = (key: string) => () => {
      renders.push(key);
      return `<p>${key}</p>`;
    };
    expect(memo.get("a", render("a"))).toBe("<p>a</p>");
    expect(memo.get("a", render("a"))).toBe("<p>a</p>");
    memo.get("b", render("b"));
    // "a" was used last before "c" came: "b" goes.
    memo.get("a", render("a"));
    memo.get("c", render("c"));
    expect(memo.size).toBe(2);
    memo.get("a", render("a"));
    memo.get("b", render("b"));
    expect(renders).toEqual(["a", "b", "c", "b"]);
  });
});

const card = (tokenId: number, favorites: number): ItemCardModel => ({
  key: `1-${tokenId}`,
  href: `/marketplace/detail?nftType=1&tokenId=${tokenId}&back=%2Fmarketplace%2Fmarket`,
  name: `Hero #${tokenId}`,
  image: `/nft/card/${tokenId}.svg`,
  typeLabel: "Hero card",
  grade: { label: "Rarity", value: "Rare" },
  attributes: [{ label: "Level", value: "3" }],
  price: "12.5 FIRE",
  venue: "In game",
  favorites,
  views: 4,
});

describe("itemGridHtml", () => {
  it("renders the cards with plain links to their detail pages, and any change of a card changes the markup", () => {
    const html = itemGridHtml([card(7, 1), card(8, 2)], "Items on sale");
    expect(html).toContain('<ul aria-label="Items on sale"');
    expect(html).toContain('<a href="/marketplace/detail?nftType=1&amp;tokenId=7&amp;back=%2Fmarketplace%2Fmarket"');
    expect(html).toContain("1 favorite · 4 views");
    expect(html).toContain('loading="eager"');
    expect(itemGridHtml([card(7, 1), card(8, 2)], "Items on sale")).toBe(html);
    expect(itemGridHtml([card(7, 2), card(8, 2)], "Items on sale")).toContain("2 favorites · 4 views");
  });
});
