import { expect, test } from "@playwright/test";

test("with JavaScript the menu takes focus, closes on Escape and returns focus", async ({ page }) => {
  await page.goto("/home");
  const summary = page.getByLabel("Menu", { exact: true });
  await summary.click();
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "Game", exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(summary).toBeFocused();
});

test("client navigation from the menu closes it and scrolls to the top", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 400 });
  await page.goto("/loyalty");
  await page.mouse.wheel(0, 2000);
  await page.getByLabel("Menu", { exact: true }).click();
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Referral" }).click();
  await expect(page).toHaveURL(/\/invite$/);
  await expect(page.getByRole("navigation", { name: "Main menu" })).toBeHidden();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});
