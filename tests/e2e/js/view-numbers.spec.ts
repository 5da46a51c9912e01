/**
 * Issue 30 with JavaScript: the view's numbers and price history are server markup (decision 0025); a period link
 * changes the chart through a client-side navigation, and the URL keeps the period.
 */
import { expect, test } from "../accounts";

test("a price-history period link navigates in place and the view's numbers stay on the page", async ({ page }) => {
  await page.goto("/marketplace/market?nftType=0");
  const numbers = page.getByRole("region", { name: "The numbers of this view" });
  await expect(numbers.locator("dt")).toHaveText(["Floor", "Listed", "24 h volume", "7 d volume", "Last sale"]);
  await page.evaluate(() => Object.assign(window, { stillTheSameDocument: true }));
  // The history comes after the results (on a phone it must not push the items down).
  const history = page.locator("details", { hasText: "Price history" });
  await history.locator("summary").click();
  await history.getByRole("link", { name: "90 days" }).click();
  await expect(page).toHaveURL(/\/marketplace\/market\?nftType=0&period=90d$/);
  await expect(history.locator("summary .section-title")).toHaveText("Price history · 90 days");
  await expect(history).toHaveAttribute("open", "");
  await expect(numbers).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillTheSameDocument?: boolean }).stillTheSameDocument)).toBe(true);
});
