import { expect, test, type Page } from "@playwright/test";
import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT } from "../../../backend/demo";
import { DEMO, logIn } from "../fixtures";
import { injectTestWallet } from "../wallet";

/** The first of the account's in-game items that it can list. */
async function openSellableItem(page: Page): Promise<string> {
  const hrefs: string[] = [];
  for (const nftType of [0, 1, 2, 3, 4, 5, 6, 7, 8]) {
    await page.goto(`/marketplace/storage?nftType=${nftType}`);
    hrefs.push(...(await page.locator('main a[href^="/marketplace/detail?"]').evaluateAll((links) => links.map((link) => link.getAttribute("href")!))));
    if (hrefs.length > 6) break;
  }
  for (const href of [...new Set(hrefs)]) {
    await page.goto(href);
    if (await page.getByRole("button", { name: "List for sale" }).count()) return href;
  }
  throw new Error("The account has no item it can list");
}

test("a browser wallet signs the sell, cancel and transfer orders in the island", async ({ page }) => {
  test.setTimeout(60_000);
  await injectTestWallet(page, { privateKey: DEMO_BROWSER_ACCOUNT.privateKey });
  await logIn(page, DEMO, "/marketplace/storage");
  await openSellableItem(page);

  await page.getByLabel("Price").fill("7.25");
  await page.getByLabel("Listing lasts").selectOption("1");
  await page.getByRole("button", { name: "List for sale" }).click();
  await expect(page.getByText("Listed for sale.")).toBeVisible();
  await expect(page.getByTestId("trade-status")).toHaveText(/^On sale for 7\.25 /);

  await page.getByRole("button", { name: "Cancel sale" }).click();
  await expect(page.getByText("Sale cancelled.")).toBeVisible();
  await expect(page.getByTestId("trade-status")).toHaveText("Not for sale");

  await page.getByLabel("Recipient address").fill(DEMO_BROWSER_ACCOUNT.wallet);
  await page.getByRole("button", { name: "Transfer" }).click();
  await expect(page.getByText("The address cannot be the same as the address of the sender")).toBeVisible();
  await page.getByLabel("Recipient address").fill(DEMO_BUYER_ACCOUNT.wallet);
  await page.getByRole("button", { name: "Transfer" }).click();
  await expect(page.getByText("Transferred.")).toBeVisible();
  await expect(page.getByText("You own this item.")).toHaveCount(0);
});
