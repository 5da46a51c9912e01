import { expect, test } from "../accounts";
import { injectTestWallet } from "../wallet";

test("a browser wallet signs the sell, cancel and transfer orders in the island", async ({ page, createAccount, signIn }) => {
  test.setTimeout(60_000);
  const [account, recipient] = await Promise.all([createAccount({ wallet: "browser" }), createAccount({ stock: {} })]);
  await injectTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  await page.goto(account.items[0].url);

  await page.getByLabel("Price").fill("7.25");
  await page.getByLabel("Listing lasts").selectOption("1");
  await page.getByRole("button", { name: "List for sale" }).click();
  await expect(page.getByText("Listed for sale.")).toBeVisible();
  await expect(page.getByTestId("trade-status")).toHaveText(/^On sale for 7\.25 /);

  await page.getByRole("button", { name: "Cancel sale" }).click();
  await expect(page.getByText("Sale cancelled.")).toBeVisible();
  await expect(page.getByTestId("trade-status")).toHaveText("Not for sale");

  await page.getByLabel("Recipient address").fill(account.wallet!);
  await page.getByRole("button", { name: "Transfer" }).click();
  await expect(page.getByText("The address cannot be the same as the address of the sender")).toBeVisible();
  await page.getByLabel("Recipient address").fill(recipient.wallet!);
  await page.getByRole("button", { name: "Transfer" }).click();
  await expect(page.getByText("Transferred.")).toBeVisible();
  await expect(page.getByText("You own this item.")).toHaveCount(0);
});

test("a browser wallet buys a managed wallet's listing: the island signs the buy order at the confirmation", async ({
  page,
  browser,
  createAccount,
  signIn,
}) => {
  test.setTimeout(90_000);
  const [sellerAccount, buyerAccount] = await Promise.all([
    createAccount({ tag: "seller" }),
    createAccount({ wallet: "browser", tag: "buyer" }),
  ]);
  const [item, pricey] = sellerAccount.items;
  const sellerContext = await browser.newContext();
  const seller = await sellerContext.newPage();
  await signIn(seller, sellerAccount);
  const listInQuark = async (url: string, price: string, shown: string) => {
    await seller.goto(url);
    await seller.getByLabel("Price").fill(price);
    await seller.getByLabel("Currency").selectOption("QUARK");
    await seller.getByRole("button", { name: "List for sale" }).click();
    await expect(seller.getByTestId("trade-status")).toHaveText(`On sale for ${shown} QUARK`);
  };
  await listInQuark(item.url, "2.5", "2.5");
  await listInQuark(pricey.url, "999999999", "999,999,999");

  await injectTestWallet(page, { privateKey: buyerAccount.key! });
  await signIn(page, buyerAccount);
  await page.goto(pricey.url);
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

test("a browser wallet signs one cancel-all order that ends every listing", async ({ page, createAccount, signIn }) => {
  test.setTimeout(60_000);
  const account = await createAccount({ wallet: "browser" });
  await injectTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  for (const [i, price] of ["41", "42"].entries()) {
    await page.goto(account.items[i].url);
    await page.getByLabel("Price").fill(price);
    await page.getByRole("button", { name: "List for sale" }).click();
    await expect(page.getByText("Listed for sale.")).toBeVisible();
  }

  await page.goto("/marketplace/storage?tab=selling");
  await page.getByRole("button", { name: "Cancel all listings" }).click();
  await expect(page.getByText("Cancelled 2 listings.")).toBeVisible();
  await expect(page.getByText("You are not selling anything of this kind.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel all listings" })).toHaveCount(0);
});
