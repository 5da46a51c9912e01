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

test("a document carries its server markup once, and hydration keeps it in place", async ({ page }) => {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  const response = await page.goto("/marketplace/market?nftType=4");
  const html = await response!.text();
  // The section is in the page once; the loader data names it by its key and does not repeat it.
  expect(html.split('aria-label="The numbers of this view"')).toHaveLength(2);
  const keys = [...html.matchAll(/data-server-markup="([\w-]+)"/g)].map((match) => match[1]);
  expect(keys.length).toBeGreaterThan(0);
  const loaderData = [...html.matchAll(/<script[^>]*>([^<]*streamController\.enqueue[^<]*)<\/script>/g)].map((m) => m[1]).join("");
  for (const key of keys) expect(loaderData).toContain(key);
  await page.waitForFunction(() => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber")));
  await page.waitForLoadState("networkidle");
  // Hydrated, with the markup read back from the page: the numbers are there, and a re-render keeps them.
  const numbers = page.getByRole("region", { name: "The numbers of this view" });
  await expect(numbers.locator("dt").first()).toHaveText("Floor");
  await page.getByRole("list", { name: "Items on sale" }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: "Attributes" })).toBeVisible();
  await page.goBack();
  await expect(numbers.locator("dt").first()).toHaveText("Floor");
  expect(problems).toEqual([]);
});

test("the market's cards are server markup (decision 0037): a card opens its item without a document load, and back shows the same cards", async ({
  page,
}) => {
  const response = await page.goto("/marketplace/market?nftType=4");
  const html = await response!.text();
  // The grid is in the page once, as markup named by its key; the cards' models are not in the loader data.
  expect(html.split('aria-label="Items on sale"')).toHaveLength(2);
  expect(html).not.toContain('\\"typeLabel\\"');
  await page.waitForFunction(() => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber")));
  await page.waitForLoadState("networkidle");
  const cards = page.getByRole("list", { name: "Items on sale" }).getByRole("link");
  const first = await cards.first().textContent();
  await page.evaluate(() => Object.assign(window, { stillTheSameDocument: true }));
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await cards.first().click();
  await expect(page).toHaveURL(/\/marketplace\/detail\?nftType=4&tokenId=\d+/);
  await expect(page.getByRole("heading", { name: "Attributes" })).toBeVisible();
  await page.goBack();
  await expect(cards.first()).toHaveText(first!);
  expect(await page.evaluate(() => (window as unknown as { stillTheSameDocument?: boolean }).stillTheSameDocument)).toBe(true);
  expect(documents).toEqual([]);
});
