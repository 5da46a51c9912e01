/**
 * Issue 17, mobile: at 390 × 844 no page is wider than the screen. Every route of product §2 and the pages a
 * signed-in player reaches from them, checked by `scrollWidth ≤ innerWidth` on the document.
 */
import { expect, type Page } from "@playwright/test";
import { ROUTES } from "./routes";

export const PHONE = { width: 390, height: 844 };

export const MOBILE_PATHS = [
  ...ROUTES.map((route) => route.path),
  "/login?act=connect",
  "/forgot-password",
  "/lootbox/17",
  "/loyalty/page/2",
  "/marketplace/market?nftType=4",
  "/marketplace/storage?tab=selling",
  "/marketplace/detail?nftType=0&tokenId=1000000001",
  "/spaceship/detail?tokenId=5",
  "/bridge",
];

/** The pages that are wider than the screen, with their widths; an empty list passes. */
export async function overflowingPages(page: Page, paths: readonly string[] = MOBILE_PATHS): Promise<string[]> {
  const wide: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    if (scrollWidth > innerWidth) wide.push(`${path}: ${scrollWidth} > ${innerWidth}`);
  }
  return wide;
}
