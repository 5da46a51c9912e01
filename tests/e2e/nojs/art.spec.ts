/**
 * Our own SVG art (scripts/make-art.ts): each page shows its images with a width and height (no layout shift),
 * each loads as a small SVG, and none overflows a 390 px wide screen.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Response } from "@playwright/test";
import { BOX_CATALOGUE } from "~core/boxes";

const ART_DIR = "public/images/art";
const MAX_SVG_BYTES = 8 * 1024;
const BOX_ART = BOX_CATALOGUE.map(({ typeBox }) => `/images/art/box-${typeBox}.svg`);

const PAGES: { path: string; art: string[] }[] = [
  { path: "/home", art: ["/images/art/hero.svg", ...BOX_ART] },
  { path: "/game", art: BOX_ART },
  ...BOX_CATALOGUE.map(({ typeBox }) => ({ path: `/lootbox/${typeBox}`, art: [`/images/art/box-${typeBox}.svg`] })),
];

test("every art file is an SVG of under 8 KB with no raster or outside reference", () => {
  const files = fs.readdirSync(ART_DIR);
  expect(files.sort()).toEqual(["hero.svg", ...BOX_CATALOGUE.map(({ typeBox }) => `box-${typeBox}.svg`)].sort());
  for (const file of files) {
    const text = fs.readFileSync(path.join(ART_DIR, file), "utf8");
    expect(Buffer.byteLength(text), file).toBeLessThan(MAX_SVG_BYTES);
    expect(text, file).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+" viewBox=/);
    // Only the namespace URL: no <image>, href, url() to another file or font.
    expect(text.replaceAll('xmlns="http://www.w3.org/2000/svg"', ""), file).not.toMatch(
      /<image|href|https?:|data:|@import|font|url\((?!#)/,
    );
  }
});

for (const { path: pagePath, art } of PAGES) {
  test(`${pagePath} shows its art with width and height, and each image loads`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const responses = new Map<string, Response>();
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith("/images/art/")) responses.set(url.pathname, response);
    });
    expect((await page.goto(pagePath))?.status()).toBe(200);

    const images = page.locator('img[src^="/images/art/"]');
    await expect(images).toHaveCount(art.length);
    const sources = await images.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("src")));
    expect(sources.sort()).toEqual([...art].sort());

    for (const img of await images.all()) {
      const src = (await img.getAttribute("src"))!;
      // Decorative: the title is next to each (axe wants alt="" for those).
      await expect(img, src).toHaveAttribute("alt", "");
      const width = Number(await img.getAttribute("width"));
      const height = Number(await img.getAttribute("height"));
      expect(width, src).toBeGreaterThan(0);
      expect(height, src).toBeGreaterThan(0);

      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { message: src }).toBeGreaterThan(0);
      const response = responses.get(src);
      expect(response, src).toBeDefined();
      expect(response!.status(), src).toBe(200);
      expect(response!.headers()["content-type"], src).toMatch(/^image\/svg\+xml/);
      expect((await response!.body()).length, src).toBeLessThan(MAX_SVG_BYTES);

      // Drawn at the attributes' aspect ratio and within the 390 px screen.
      const box = (await img.boundingBox())!;
      expect(box.x + box.width, src).toBeLessThanOrEqual(390);
      expect(Math.abs(box.height - (box.width * height) / width), src).toBeLessThan(1);
    }
  });
}
