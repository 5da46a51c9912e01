/** Link-preview PNGs (issue 42): drawn from our SVG art at 1200×630, text in the fonts loaded from file. */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { itemCardSvg, placeArt, renderPng, siteCardSvg, wrapText } from "~/features/share/og-image.server";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the IHDR chunk, the first after the signature. */
function pngSize(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  expect(new TextDecoder().decode(png.subarray(12, 16))).toBe("IHDR");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const art = fs.readFileSync("public/images/nft/spaceship-epic.svg", "utf8");

describe("preview images", () => {
  it("renders an item's card as a 1200×630 PNG", () => {
    const png = renderPng(itemCardSvg({ art, name: "Epic Cruiser #42", detail: "Spaceships · Rank: Epic" }));
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
  });

  it("renders the site's card as a 1200×630 PNG", () => {
    const hero = fs.readFileSync("public/images/art/hero.svg", "utf8");
    expect(pngSize(renderPng(siteCardSvg({ art: hero, tagline: "A space game." })))).toEqual({ width: 1200, height: 630 });
  });

  it("draws the item's name (its font loads) and the same card to the same bytes", () => {
    const card = (name: string) => renderPng(itemCardSvg({ art, name, detail: "Spaceships" }));
    expect(Buffer.from(card("Epic Cruiser #42")).equals(Buffer.from(card("Epic Cruiser #43")))).toBe(false);
    expect(Buffer.from(card("Epic Cruiser #42")).equals(Buffer.from(card("Epic Cruiser #42")))).toBe(true);
  });

  it("escapes the name and nests the art with its own viewBox", () => {
    const svg = itemCardSvg({ art, name: "A <b>&</b>", detail: "x" });
    expect(svg).toContain("A &#60;b&#62;&#38;&#60;/b&#62;");
    expect(placeArt(art, { x: 1, y: 2, width: 3, height: 4 })).toMatch(/^<svg x="1" y="2" width="3" height="4" viewBox="0 0 100 100"/);
  });

  it("wraps a long name on word boundaries, cutting what does not fit", () => {
    expect(wrapText("Legendary Dreadnought #123456", 15, 3)).toEqual(["Legendary", "Dreadnought", "#123456"]);
    expect(wrapText("a b c d", 3, 1)).toEqual(["a…"]);
    expect(wrapText("Supercalifragilistic", 10, 2)).toEqual(["Supercali…"]);
  });
});
