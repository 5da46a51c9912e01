/**
 * Issue 42 with JavaScript: the share tags the root renders from loader data hydrate as the server wrote them (a
 * listed item's JSON-LD among them), and a client-side navigation brings the next page's.
 */
import { expect, test } from "@playwright/test";

test("an item page's share tags hydrate without a mismatch and follow a client navigation", async ({ page }) => {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await page.goto("/marketplace/market");
  const href = await page
    .getByRole("list", { name: "Items on sale" })
    .locator('a[href^="/marketplace/detail?"]')
    .first()
    .getAttribute("href");
  const ref = new URL(href!, "http://site").searchParams;
  await page.goto(href!);
  await page.waitForFunction(() => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber")));
  await page.waitForLoadState("networkidle");
  await expect(page.locator('head script[type="application/ld+json"]')).toHaveCount(1);
  const canonical = page.locator('head link[rel="canonical"]');
  expect(new URL((await canonical.getAttribute("href"))!).search).toBe(`?nftType=${ref.get("nftType")}&tokenId=${ref.get("tokenId")}`);

  await page.getByRole("link", { name: "← Back to the list" }).click();
  await expect(page).toHaveURL(/\/marketplace\/market$/);
  await expect.poll(async () => new URL((await canonical.getAttribute("href"))!).pathname).toBe("/marketplace/market");
  await expect(page.locator('head script[type="application/ld+json"]')).toHaveCount(0);
  expect(problems).toEqual([]);
});
