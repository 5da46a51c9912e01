/**
 * A visitor's cached item page (decision 0033) without JavaScript: the copy any cache keeps is whole server HTML, so it
 * reads as the page does with scripts, and its forms post without them.
 */
import { expect, test } from "@playwright/test";

test("a visitor's item page, the copy a shared cache keeps, renders whole with JavaScript off", async ({ page, request }) => {
  const market = await (await request.get("/marketplace/market?sort=listed-asc")).text();
  const item = /href="(\/marketplace\/detail\?[^"]*)"/.exec(market)![1]!.replaceAll("&amp;", "&");
  const response = await page.goto(item);
  expect(response!.headers()["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
  expect(response!.headers()["content-security-policy"]).not.toContain("nonce-");
  await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
  await expect(page.getByText("Owner", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Trade" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Log in to trade" })).toBeVisible();
  // The favorite toggle is a plain form without JavaScript: a visitor is sent to log in.
  await page.getByRole("button", { name: "Add to favorites" }).click();
  await expect(page).toHaveURL(/\/login/);
});
