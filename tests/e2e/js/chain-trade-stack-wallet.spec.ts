/**
 * Issue 42, JavaScript on, browser wallets trading a chain-held material stack from its item page
 * (app/features/market/chain-trade.client.tsx): the seller lists 40 of its 100 Gold (SparkItems approved for the
 * trading contract once, then an ERC-1155 listing of that amount signed and stored), another browser wallet buys the
 * 40 with quickSale, every balance on chain exact; then the seller transfers 10 of the 60 left (transferItem1155).
 * And a browser wallet transfers its chain-held loot box.
 */
import type { Page } from "@playwright/test";
import { shortAddress } from "~core/address";
import { parseEther, toFunctionSelector } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { chainStackTokenId } from "~core/item-moves";
import { SEEDED_FEE_BPS, tradingFee } from "~core/trading";
import { expect, test } from "../accounts";
import { mintStack } from "../chain-funds";
import { reloadUntil } from "../managed-chain";
import { APPROVE, APPROVE_ALL, QUICK_SALE, TRANSFER_NFT, sentSelectors } from "../wallet";

const GOLD = 8002n;
const TRANSFER_STACK = toFunctionSelector("transferItem1155(address,address,uint256[],uint256[])");
const status = (page: Page) => page.getByTestId("chain-trade-status");
/** Screenshots of what `target` shows at 390 and 1280 px. */
async function screenshots(page: Page, name: string, target: ReturnType<Page["getByTestId"]>) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}
/** The proof fields an island posts with a listing it signed: a forged post is refused before they are read. */
const SIGNED = { salt: "1", expiry: "1", counter: "0", signature: `0x${"11".repeat(65)}`, confirmed: "1" };
const stackPage = (holder: string) => `/marketplace/detail?nftType=8&tokenId=${chainStackTokenId(GOLD, holder)}`;

test("a browser wallet lists 40 of its 100 Gold on chain and another browser wallet buys them: every amount exact", async ({
  page,
  baseURL,
  createAccount,
  read,
  walletPage,
  walletPlayer,
}) => {
  test.setTimeout(150_000);
  const { account: seller, wallet } = await walletPlayer({ stock: {}, chain: { BNB: 1 }, tag: "stack-seller" });
  await mintStack(seller.wallet!, GOLD, 100n);
  await page.goto(stackPage(seller.wallet!));
  const sell = page.getByRole("form", { name: "Sell on chain" });
  await reloadUntil(page, (expect) => expect(sell).toBeVisible());
  await expect(sell.getByLabel(/^Amount/)).toHaveValue("100");
  await sell.getByLabel(/^Amount/).fill("40");
  await sell.getByLabel("Price").fill("25");
  await sell.getByLabel("Currency").selectOption("FIRE");
  // The wallet holds its approval while the review is read: nothing is signed before it is on screen.
  const held = wallet.hold();
  try {
    await sell.getByRole("button", { name: "Review the listing" }).click();
    await expect(page.getByTestId("chain-sell-review")).toHaveText(
      "Amount40 GoldPrice25 FIREMarket fee (2.5 %)0.625 FIREYou receive24.375 FIRE",
    );
    await expect(status(page)).toContainText("Let the market move your items: confirm in your wallet…");
    await screenshots(page, "stack-sell-review", page.getByTestId("chain-sell-review"));
  } finally {
    held.release();
  }
  await expect(page.getByText("Listed on chain.")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("trade-status")).toHaveText("On sale for 25 FIRE on chain");
  expect(sentSelectors(wallet)).toEqual([APPROVE_ALL]);
  // Moving part of the stack keeps the listing as long as the 40 stay.
  await expect(page.getByRole("form", { name: "Transfer to a wallet" })).toContainText(
    "Its listing on chain ends if fewer than the 40 listed stay in your wallet.",
  );

  // The server checks a signed stack listing's amount against the wallet's chain stack, as a managed wallet's.
  const forged = await page.request.post(stackPage(seller.wallet!), {
    form: { intent: "chain-sell", amount: "101", price: "25", currency: "FIRE", days: "3", ...SIGNED },
    headers: { Origin: baseURL! },
  });
  expect([forged.status(), await forged.text()]).toEqual([400, expect.stringContaining("Enter a whole number from 1 to 100.")]);

  const buyer = await createAccount({ wallet: "browser", stock: {}, chain: { BNB: 1, FIRE: 30 }, tag: "stack-buyer" });
  const { page: buyerPage, wallet: buyerWallet } = await walletPage(buyer);
  await buyerPage.goto(stackPage(seller.wallet!));
  await expect(buyerPage.getByTestId("trade-status")).toHaveText("On sale for 25 FIRE on chain");
  await buyerPage.getByRole("button", { name: "Buy" }).click();
  const confirm = buyerPage.getByRole("form", { name: "Confirm the purchase" });
  await expect(confirm.getByTestId("confirm-summary")).toHaveText("Buy 40 Gold for 25 FIRE");
  await expect(confirm.getByTestId("confirm-balance")).toHaveText("30 FIRE");
  await screenshots(buyerPage, "stack-buy-confirm", confirm);
  const price = parseEther("25");
  const before = { seller: await read.balance("FIRE", seller.wallet!), buyer: await read.balance("FIRE", buyer.wallet!) };
  await confirm.getByRole("button", { name: "Confirm purchase" }).click();
  // The buyer's 40 are a stack of their own: once the listing closes this page offers them nothing, and a toast says it.
  await expect(buyerPage.getByRole("status").filter({ hasText: "Bought: 40 Gold are in your wallet." })).toBeVisible({ timeout: 30_000 });
  await expect(buyerPage.getByTestId("trade-status")).toHaveText("Not for sale", { timeout: 20_000 });
  expect(sentSelectors(buyerWallet)).toEqual([APPROVE, QUICK_SALE]);

  expect([await read.stack(seller.wallet!, GOLD), await read.stack(buyer.wallet!, GOLD)]).toEqual([60n, 40n]);
  expect(await read.balance("FIRE", buyer.wallet!)).toBe(before.buyer - price);
  expect(await read.balance("FIRE", seller.wallet!)).toBe(before.seller + price - tradingFee(price, SEEDED_FEE_BPS));

  // 10 of the 60 left go to another wallet: approved already, so one transaction; the page follows the stack's amount.
  const friend = privateKeyToAccount(generatePrivateKey()).address;
  await reloadUntil(page, (expect) => expect(page.getByRole("form", { name: "Sell on chain" })).toBeVisible());
  const transfer = page.getByRole("form", { name: "Transfer to a wallet" });
  await expect(transfer.getByLabel(/^Amount/)).toHaveValue("60");
  await transfer.getByLabel(/^Amount/).fill("10");
  await transfer.getByLabel("Recipient address").fill(friend);
  await screenshots(page, "stack-transfer", transfer);
  await transfer.getByRole("button", { name: "Transfer" }).click();
  await expect(status(page)).toContainText(`10 Gold are in wallet ${friend}.`, { timeout: 30_000 });
  await expect(page.getByRole("form", { name: "Transfer to a wallet" })).toContainText("You hold 50 on chain.");
  // The amount starts again from what is held now, not the 10 typed.
  await expect(transfer.getByLabel("Amount")).toHaveValue("50");
  expect(sentSelectors(wallet)).toEqual([APPROVE_ALL, TRANSFER_STACK]);
  expect([await read.stack(seller.wallet!, GOLD), await read.stack(friend, GOLD)]).toEqual([50n, 10n]);
});

test("a browser wallet transfers its chain-held loot box to another wallet: the page names the new owner", async ({
  page,
  read,
  walletPlayer,
}) => {
  test.setTimeout(90_000);
  const { account: holder, wallet } = await walletPlayer({ stock: {}, chain: { BNB: 1, boxes: { 1: 1 } }, tag: "box-holder" });
  const [box] = await read.boxes(holder.wallet!);
  await page.goto(`/marketplace/detail?nftType=6&tokenId=${box!.id}`);
  const transfer = page.getByRole("form", { name: "Transfer to a wallet" });
  await reloadUntil(page, (expect) => expect(transfer).toBeVisible());
  await expect(page.getByRole("form", { name: "Send to a player" })).toHaveCount(0);
  const friend = privateKeyToAccount(generatePrivateKey()).address;
  await transfer.getByLabel("Recipient address").fill(friend);
  await transfer.getByRole("button", { name: "Transfer" }).click();
  const owner = page.locator("dt", { hasText: "Owner" }).locator("+ dd");
  // An unbound wallet is named by its short form, the whole address in its title.
  await expect(owner).toHaveText(shortAddress(friend), { timeout: 30_000 });
  await expect(owner.locator("[title]")).toHaveAttribute("title", friend);
  expect(sentSelectors(wallet)).toEqual([APPROVE_ALL, TRANSFER_NFT]);
  expect((await read.boxes(friend)).map(({ id }) => id)).toEqual([box!.id]);
});
