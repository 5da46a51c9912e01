import { expect, test } from "../accounts";
import { DEMO } from "../fixtures";
import { MOBILE_PATHS, overflowingPages, PHONE } from "../mobile";
import { anvilKey, installTestWallet } from "../wallet";

test.use({ viewport: PHONE });

test("at 390 px, signed in with the bound wallet connected, no page is wider than the screen", async ({ page, signIn }) => {
  test.setTimeout(120_000);
  await installTestWallet(page, { privateKey: anvilKey(0) });
  await signIn(page, DEMO);
  await page.goto("/home");
  await page.getByTestId("wallet-button").locator("..").click();
  await page.getByRole("button", { name: /^MetaMask/ }).click();
  await expect(page.getByTestId("wallet-address")).toBeVisible();
  await page.keyboard.press("Escape");
  expect(await overflowingPages(page, [...MOBILE_PATHS, "/invite"])).toEqual([]);
  await expect(page.getByLabel("Menu", { exact: true })).toBeInViewport();
});
