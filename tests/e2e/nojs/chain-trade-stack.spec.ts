/**
 * Issue 28 (part 2) acceptance for stacks, JavaScript off, managed wallets: a seller with 100 Gold on chain lists 40
 * of them on the trading contract for FIRE from the stack's page (an amount it does not hold refused next to the
 * field, then the approval, then a review naming the amount and the exact fee), and another player buys the 40
 * through quickSale: 60 stay with the seller, 40 are the buyer's, every FIRE balance exact to the wei. Then the
 * seller transfers 10 of the 60 to another wallet.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test } from "../accounts";
import { mintStack } from "../chain-funds";
import { approveTrading, openHeld } from "../chain-trade-forms";
import { waitForOutcome } from "../managed-chain";
import { PHONE } from "../mobile";
import { chainStackTokenId } from "~core/item-moves";
import { WEI_PER_TOKEN } from "~core/money";

test.describe.configure({ timeout: 180_000 });

const WEI = WEI_PER_TOKEN;
const GOLD = 8002n;
const stackPage = (holder: string) => `/marketplace/detail?nftType=8&tokenId=${chainStackTokenId(GOLD, holder)}`;

test("a managed seller lists 40 of 100 Gold on chain for FIRE and a managed buyer buys them: exact to the wei", async ({
  page,
  createAccount,
  player,
  signedInPage,
  read,
}) => {
  const seller = await player({ stock: {}, chain: { BNB: 1 } });
  const buyer = await createAccount({ stock: {}, chain: { BNB: 1, FIRE: 100 } });
  await mintStack(seller.wallet!, GOLD, 100n);
  await openHeld(page, stackPage(seller.wallet!));
  const sell = () => page.getByRole("form", { name: "Sell on chain" });
  await expect(sell().getByLabel(/^Amount/)).toHaveValue("100");
  await expect(page.getByRole("form", { name: "Send to a player" })).toHaveCount(0);

  // More than the wallet holds (a page left open while the stack shrank): refused next to the field, nothing sent.
  await sell()
    .getByLabel(/^Amount/)
    .evaluate((input) => input.removeAttribute("max"));
  await sell()
    .getByLabel(/^Amount/)
    .fill("101");
  await sell().getByLabel("Price").fill("25");
  await sell().getByRole("button", { name: "Approve the trading contract" }).click();
  await expect(sell().getByLabel(/^Amount/)).toHaveAccessibleDescription(/^Enter a whole number from 1 to 100\./);
  await expect(sell().getByLabel(/^Amount/)).toHaveValue("101");
  expect(await read.sent(seller.wallet!)).toBe(0);

  await sell()
    .getByLabel(/^Amount/)
    .fill("40");
  await approveTrading(page);
  await sell()
    .getByLabel(/^Amount/)
    .fill("40");
  await sell().getByLabel("Price").fill("25");
  await sell().getByLabel("Currency").selectOption("FIRE");
  await sell().getByLabel("Listing lasts (days)").fill("3");
  await sell().getByRole("button", { name: "Review the listing" }).click();
  const review = page.getByRole("form", { name: "Review the listing" });
  await expect(review.getByTestId("review-amount")).toHaveText("40 Gold");
  await expect(review.getByTestId("review-price")).toHaveText("25 FIRE");
  await expect(review.getByTestId("review-fee")).toHaveText("0.625 FIRE (2.5 %)");
  await expect(review.getByTestId("review-receive")).toHaveText("24.375 FIRE");
  await review.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("stack-sell-review-1280.png") });
  await page.setViewportSize(PHONE);
  await review.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("stack-sell-review-390.png") });
  await review.getByRole("button", { name: "List on chain" }).click();
  await expect(page.getByTestId("trade-status")).toHaveText("On sale for 25 FIRE on chain");

  const buyerPage = await signedInPage(buyer);
  await buyerPage.goto(stackPage(seller.wallet!));
  await buyerPage.getByRole("button", { name: "Buy" }).click();
  const confirm = buyerPage.getByRole("form", { name: "Confirm the purchase" });
  await expect(confirm.getByTestId("confirm-summary")).toHaveText("Buy 40 Gold for 25 FIRE");
  await expect(confirm.getByTestId("confirm-fee")).toHaveText("0.625 FIRE (2.5 %), included in the price");
  await expect(confirm.getByTestId("confirm-balance")).toHaveText("100 FIRE");
  await confirm.getByRole("button", { name: "Confirm purchase" }).click();
  await waitForOutcome(buyerPage);
  await expect(buyerPage).toHaveTitle(`Buy 40 of item #${GOLD} | Spark Era`);

  expect([await read.stack(seller.wallet!, GOLD), await read.stack(buyer.wallet!, GOLD)]).toEqual([60n, 40n]);
  expect(await read.balance("FIRE", seller.wallet!)).toBe(24_375n * (WEI / 1000n));
  expect(await read.balance("FIRE", buyer.wallet!)).toBe(75n * WEI);
  expect(await read.transferred("FIRE", buyer.wallet!, read.treasury)).toBe(625n * (WEI / 1000n));

  // 10 of the 60 left go to another wallet (trade.transferItems); Send to a player is for cards only.
  const friend = privateKeyToAccount(generatePrivateKey()).address;
  await page.goto(stackPage(seller.wallet!));
  const transfer = page.getByRole("form", { name: "Transfer to a wallet" });
  await transfer.getByLabel(/^Amount/).fill("10");
  await transfer.getByLabel("Recipient address").fill(friend);
  await transfer.getByRole("button", { name: "Transfer" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(`Send 10 of item #${GOLD} to ${friend} | Spark Era`);
  expect([await read.stack(seller.wallet!, GOLD), await read.stack(friend, GOLD)]).toEqual([50n, 10n]);
});
