import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { DEMO } from "../fixtures";
import { anvilKey, installTestWallet } from "../wallet";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

test("a box page with its wallet panel has no serious accessibility violations", async ({ page }) => {
  await installTestWallet(page, { privateKey: anvilKey(0) });
  await page.goto("/lootbox/18");
  await expect(page.getByRole("button", { name: "Connect wallet" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("a signed-in box page with a connected wallet, and the open wallet sheet, have none either", async ({ page, signIn }) => {
  await installTestWallet(page, { privateKey: anvilKey(0) });
  await signIn(page, DEMO);
  await page.goto("/lootbox/7");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByText("Wallet 0xf39F…b92266", { exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByTestId("wallet-button").click();
  await expect(page.getByRole("button", { name: "Log out of the wallet" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the install dialog has no serious accessibility violations", async ({ page, signIn }) => {
  await signIn(page, DEMO);
  await page.goto("/lootbox/6");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByRole("dialog", { name: "Tips" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
