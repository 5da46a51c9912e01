import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { listForSale } from "../fixtures";

test.describe.configure({ timeout: 120_000 });

async function list(page: Page, price: string, shown = price) {
  await listForSale(page, price);
  await expect(page.getByTestId("trade-status")).toHaveText(`On sale for ${shown} FIRE`);
}

test("managed wallets list, cancel, list again and buy without JavaScript; an unaffordable or stale buy fails", async ({
  page,
  createAccount,
  signIn,
  signedInPage,
}) => {
  const [sellerAccount, buyerAccount] = await Promise.all([
    createAccount({ tag: "seller" }),
    createAccount({ tag: "buyer", stock: { balances: { FIRE: 100 } } }),
  ]);
  const [item, pricey] = sellerAccount.items;
  await signIn(page, sellerAccount);
  await page.goto(item.url);
  const detail = page.url();

  // Bad input stays on the page with the message next to the field.
  await page.getByLabel("Price").fill("-1");
  await page.getByRole("button", { name: "List for sale" }).click();
  await expect(page.getByText("Enter a price as a decimal number, like 12.5")).toBeVisible();
  await page.getByLabel("Recipient address").fill(sellerAccount.wallet!);
  await page.getByRole("button", { name: "Transfer" }).click();
  await expect(page.getByText("The address cannot be the same as the address of the sender")).toBeVisible();

  await page.goto(detail);
  await list(page, "12.5");
  await page.goto("/marketplace/storage?tab=selling");
  await expect(page.locator(`main a[href*="tokenId=${item.tokenId}&"]`).first()).toBeVisible();
  await page.goto(`/marketplace/market?nftType=${item.nftType}`);
  await expect(page.locator(`main a[href*="tokenId=${item.tokenId}&"]`).first()).toBeVisible();

  await page.goto(detail);
  await page.getByRole("button", { name: "Cancel sale" }).click();
  await expect(page.getByText("Sale cancelled.")).toBeVisible();
  await expect(page.getByTestId("trade-status")).toHaveText("Not for sale");
  await list(page, "3");

  // A second item at a price the buyer does not have.
  await page.goto(pricey.url);
  await list(page, "999999999", "999,999,999");

  const buyer = await signedInPage(buyerAccount);
  await buyer.goto(pricey.url);
  await buyer.getByRole("button", { name: "Buy" }).click();
  await expect(buyer.getByTestId("confirm-price")).toHaveText("999,999,999 FIRE");
  await buyer.getByRole("button", { name: "Confirm purchase" }).click();
  await expect(buyer.getByRole("alert").filter({ hasText: "Failed" })).toContainText("Transaction failed. You do not have enough balance.");

  // Pages left open while the seller relisted (same price, a new listing) buy nothing: the item page, then the confirmation.
  const relist = async () => {
    await page.goto(detail);
    await page.getByRole("button", { name: "Cancel sale" }).click();
    await expect(page.getByText("Sale cancelled.")).toBeVisible();
    await list(page, "3");
  };
  const expectListingChanged = async (button: string) => {
    const refused = buyer.waitForResponse((response) => response.request().method() === "POST");
    await buyer.getByRole("button", { name: button }).click();
    expect((await refused).status()).toBe(409);
    await expect(buyer.getByRole("alert").filter({ hasText: "Failed" })).toContainText(
      "This listing has changed. Please review the new price and try again.",
    );
    await expect(buyer.getByTestId("trade-status")).toHaveText("On sale for 3 FIRE");
  };
  await buyer.goto(item.url);
  await relist();
  await expectListingChanged("Buy");
  await buyer.getByRole("button", { name: "Buy" }).click();
  await expect(buyer.getByTestId("confirm-price")).toHaveText("3 FIRE");
  await relist();
  await expectListingChanged("Confirm purchase");

  await buyer.goto(item.url);
  await buyer.getByRole("button", { name: "Buy" }).click();
  await expect(buyer.getByTestId("confirm-price")).toHaveText("3 FIRE");
  const before = await buyer.getByTestId("confirm-balance").textContent();
  await buyer.getByRole("button", { name: "Confirm purchase" }).click();
  await expect(buyer.getByText("Purchase complete.")).toBeVisible();
  await expect(buyer.getByText("You own this item.")).toBeVisible();
  await expect(buyer.getByTestId("trade-status")).toHaveText("Not for sale");

  // The seller no longer owns it; the buyer's balance went down by the price.
  await page.goto(detail);
  await expect(page.getByText("You own this item.")).toHaveCount(0);
  await buyer.goto(pricey.url);
  await buyer.getByRole("button", { name: "Buy" }).click();
  const after = await buyer.getByTestId("confirm-balance").textContent();
  const amount = (text: string | null) => Number(text!.replace(/[^\d.]/g, ""));
  expect(amount(before) - amount(after)).toBeCloseTo(3, 3);
  await buyer.context().close();

  // "Cancel all listings" takes the pricey listing, the one left, off the market; the SSO signs for the managed wallet.
  await page.goto("/marketplace/storage?tab=selling");
  await expect(page.locator(`main a[href*="tokenId=${pricey.tokenId}&"]`).first()).toBeVisible();
  await page.getByRole("button", { name: "Cancel all listings" }).click();
  await expect(page.getByText("Cancelled 1 listing.")).toBeVisible();
  await expect(page.getByText("You are not selling anything of this kind.")).toBeVisible();
  await page.goto(pricey.url);
  await expect(page.getByTestId("trade-status")).toHaveText("Not for sale");
});
