import { expect, test } from "@playwright/test";
import { DEMO_BROWSER_ACCOUNT, DEMO_BUYER_ACCOUNT } from "../../../backend/demo";
import { BUYER, DEMO, logIn, openSellableItem } from "../fixtures";
import { injectTestWallet } from "../wallet";

// One demo browser wallet trades in every test here, and "Cancel all listings" ends all of its listings.
test.describe.configure({ mode: "serial" });

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

test("a browser wallet buys a managed wallet's listing: the island signs the buy order at the confirmation", async ({ page, browser }) => {
  test.setTimeout(90_000);
  // The seller lists in QUARK: the no-JS trade test watches the buyer account's FIRE balance.
  const sellerContext = await browser.newContext();
  const seller = await sellerContext.newPage();
  await logIn(seller, BUYER, "/marketplace/storage");
  const listInQuark = async (price: string, shown: string) => {
    await seller.getByLabel("Price").fill(price);
    await seller.getByLabel("Currency").selectOption("QUARK");
    await seller.getByRole("button", { name: "List for sale" }).click();
    await expect(seller.getByTestId("trade-status")).toHaveText(`On sale for ${shown} QUARK`);
  };
  const item = await openSellableItem(seller);
  await listInQuark("2.5", "2.5");
  const pricey = await openSellableItem(seller, [item.tokenId]);
  await listInQuark("999999999", "999,999,999");

  await injectTestWallet(page, { privateKey: DEMO_BROWSER_ACCOUNT.privateKey });
  await logIn(page, DEMO, pricey.url);
  const balance = async () => {
    await page.getByRole("button", { name: "Buy" }).click();
    return Number((await page.getByTestId("confirm-balance").textContent())!.replace(/[^\d.]/g, ""));
  };
  const before = await balance();
  await page.getByRole("button", { name: "Confirm purchase" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Failed" })).toContainText("Transaction failed. You do not have enough balance.");

  await page.goto(item.url);
  await page.getByRole("button", { name: "Buy" }).click();
  await expect(page.getByTestId("confirm-price")).toHaveText("2.5 QUARK");
  await page.getByRole("button", { name: "Confirm purchase" }).click();
  await expect(page.getByText("Purchase complete.")).toBeVisible();
  await expect(page.getByText("You own this item.")).toBeVisible();
  await expect(page.getByTestId("trade-status")).toHaveText("Not for sale");

  await page.goto(pricey.url);
  expect(before - (await balance())).toBeCloseTo(2.5, 6);
  await seller.goto(item.url);
  await expect(seller.getByText("You own this item.")).toHaveCount(0);
  await seller.goto(pricey.url);
  await seller.getByRole("button", { name: "Cancel sale" }).click();
  await expect(seller.getByText("Sale cancelled.")).toBeVisible();
  await sellerContext.close();
});

test("a browser wallet signs one cancel-all order that ends every listing", async ({ page }) => {
  test.setTimeout(60_000);
  await injectTestWallet(page, { privateKey: DEMO_BROWSER_ACCOUNT.privateKey });
  await logIn(page, DEMO, "/marketplace/storage");
  const listed: string[] = [];
  for (const price of ["41", "42"]) {
    const item = await openSellableItem(page, listed);
    await page.getByLabel("Price").fill(price);
    await page.getByRole("button", { name: "List for sale" }).click();
    await expect(page.getByText("Listed for sale.")).toBeVisible();
    listed.push(item.tokenId);
  }

  await page.goto("/marketplace/storage?tab=selling");
  await page.getByRole("button", { name: "Cancel all listings" }).click();
  await expect(page.getByText(/^Cancelled \d+ listings\.$/)).toBeVisible();
  await expect(page.getByText("You are not selling anything of this kind.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel all listings" })).toHaveCount(0);
});
