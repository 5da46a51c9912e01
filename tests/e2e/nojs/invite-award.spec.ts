/**
 * Issue 29 acceptance, JavaScript off, a managed wallet: a referrer's USDT rebate is claimed to the chain. The market
 * signs it as an award, the SSO executor submits it to the reward manager, the wallet's USDT on chain rises by exactly
 * the rebate, and /invite lists the award as paid once the indexer has seen it. A wallet without BNB pays the network
 * fee from the rebate itself (issue 46); one whose rebate is smaller than the fee is told the fee, and nothing is sent.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { reloadUntil, reviewedFee, waitForOutcome } from "../managed-chain";

const REBATE = 12_345_678_901_234_567_891n;
const rebateRow = (page: Page, currency: string) =>
  page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: currency, exact: true }) });

test("a managed referrer claims a USDT rebate to the chain: the wallet's USDT rises by exactly the rebate, and the award is paid", async ({
  page,
  read,
  player,
}) => {
  test.setTimeout(90_000);
  const account = await player({ stock: { rebates: { USDT: REBATE.toString() } }, chain: { BNB: 1 } });
  const wallet = account.wallet!;
  await page.goto("/invite");
  await expect(page.getByText("No awards yet")).toBeVisible();
  const before = await read.balance("USDT", wallet);

  await rebateRow(page, "USDT").getByRole("button", { name: "Claim USDT" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(/^Claim 12\.34\d* USDT to the chain \| Spark Era$/);
  expect(await read.balance("USDT", wallet)).toBe(before + REBATE);

  await page.getByRole("link", { name: "Back to your rebates" }).click();
  await expect(page).toHaveURL(/\/invite$/);
  await reloadUntil(page, (quick) => quick(page.getByTestId("award-row").first()).toHaveAttribute("data-state", "paid"));
  await expect(page.getByTestId("award-row").first()).toContainText("Paid on chain");
  // Claimed: nothing is left to claim.
  await expect(rebateRow(page, "USDT").getByRole("button", { name: "Claim USDT" })).toBeDisabled();
});

test("a managed referrer without BNB or tokens claims a USDT rebate: the network fee is reviewed in USDT and paid from the rebate, to the wei", async ({
  page,
  read,
  player,
}) => {
  test.setTimeout(90_000);
  const account = await player({ stock: { rebates: { USDT: REBATE.toString() } } });
  const wallet = account.wallet!;
  await page.goto("/invite");
  await rebateRow(page, "USDT").getByRole("button", { name: "Claim USDT" }).click();

  await expect(page).toHaveURL(/\/actions\/review\/[0-9a-f]{32}\?back=%2Finvite$/);
  const fee = await reviewedFee(page, "USDT");
  expect(await read.sent(wallet)).toBe(0);
  await page.getByRole("button", { name: "Confirm and pay the fee" }).click();
  await waitForOutcome(page);
  expect(await read.balance("USDT", wallet)).toBe(REBATE - fee);
  expect(await read.bnb(wallet)).toBe(0n);
});

test("a rebate smaller than the network fee, to a wallet with neither BNB nor a token: the fee is named in each token, and nothing is sent", async ({
  page,
  read,
  player,
}) => {
  const account = await player({ stock: { rebates: { USDT: "5000" } } });
  await page.goto("/invite");
  await rebateRow(page, "USDT").getByRole("button", { name: "Claim USDT" }).click();
  await expect(
    page.getByText(
      /^Your wallet holds no BNB for this action's network fee, and not enough of any token to pay it instead \([\d.]+ FIRE, or [\d.]+ QUARK, or [\d.]+ USDT, besides what the action spends\)\. Send BNB or one of these tokens to your wallet first\.$/,
    ),
  ).toBeVisible();
  expect(await read.sent(account.wallet!)).toBe(0);
  // The signed award stays payable until its deadline (then it returns to the rebate): claimable again once the wallet can pay.
  await expect(page.getByRole("list", { name: "Awards" }).getByRole("button", { name: "Claim to the chain" })).toBeVisible();
});
