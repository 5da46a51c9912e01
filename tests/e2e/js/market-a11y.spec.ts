import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { DEMO } from "../fixtures";

/** The marketplace in its fuller states (filters, chips, notices, stats, tables), beyond the bare routes of a11y.spec. */
async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

test("the market with filters, chips, a notice and open stats is accessible", async ({ page }) => {
  await page.goto("/marketplace/market?nftType=4&camp=1&rank=2,3&endurance=10,&sort=total-desc&foo=1");
  await expect(page.getByRole("status").filter({ hasText: "were not understood" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Endurance" })).toBeVisible();
  await expectNoSeriousViolations(page);
});

test("a spaceship's detail and the statistics with the chart table open are accessible", async ({ page }) => {
  await page.goto("/marketplace/market?nftType=4");
  await page.getByRole("list", { name: "Items on sale" }).getByRole("article").first().getByRole("link").click();
  await expect(page.getByRole("table", { name: "Spaceship stats" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.goto("/marketplace/statistics?nftType=4");
  await page.getByText("Show the figures as a table").click();
  await expectNoSeriousViolations(page);
});

test("storage with a wallet is accessible", async ({ page, signIn }) => {
  await signIn(page, DEMO);
  await page.goto("/marketplace/storage");
  await expect(page.getByRole("list", { name: "My items" })).toBeVisible();
  await expectNoSeriousViolations(page);
});
