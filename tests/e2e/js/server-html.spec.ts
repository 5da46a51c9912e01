/**
 * Decision 0025: the item page's read-only sections are server markup. With JavaScript, a link inside them still
 * navigates as a Remix link does (no whole document loads); a link opened in a new tab is left to the browser.
 */
import { expect, test } from "../accounts";

test("a link in the item page's server-rendered sections navigates without loading a whole document", async ({ page }) => {
  await page.goto("/marketplace/market?nftType=4");
  await page.getByRole("list", { name: "Items on sale" }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: "Attributes" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Total" }).or(page.getByRole("rowheader", { name: "Total" }))).toBeVisible();
  // A mark on the window survives a client-side navigation and is gone after a document load.
  await page.evaluate(() => Object.assign(window, { stillTheSameDocument: true }));
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await page.getByRole("link", { name: "Power, duration, slots and history of this ship" }).click();
  await expect(page).toHaveURL(/\/spaceship\/detail\?tokenId=\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillTheSameDocument?: boolean }).stillTheSameDocument)).toBe(true);
  expect(documents).toEqual([]);
});
