/**
 * Issue 29 acceptance, JavaScript off, a managed wallet: a referrer's USDT rebate is claimed to the chain. The market
 * signs it as an award, the SSO executor submits it to the reward manager, the wallet's USDT on chain rises by exactly
 * the rebate, and /invite lists the award as paid once the indexer has seen it. A wallet with neither BNB nor a token
 * to pay the network fee in is told so, and its rebate stays claimable.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { chainReader, reloadUntil, waitForOutcome } from "../managed-chain";

const REBATE = 12_345_678_901_234_567_891n;
const rebateRow = (page: Page, currency: string) =>
  page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: currency, exact: true }) });

test("a managed referrer claims a USDT rebate to the chain: the wallet's USDT rises by exactly the rebate, and the award is paid", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(90_000);
  const read = chainReader();
  const account = await createAccount({ stock: { rebates: { USDT: REBATE.toString() } }, chain: { BNB: 1 } });
  const wallet = account.wallet!;
  await signIn(page, account);
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

test("a managed wallet with neither BNB nor a token to pay the network fee is told so, and its rebate stays claimable", async ({
  page,
  createAccount,
  signIn,
}) => {
  const account = await createAccount({ stock: { rebates: { USDT: "5000" } } });
  await signIn(page, account);
  await page.goto("/invite");
  await rebateRow(page, "USDT").getByRole("button", { name: "Claim USDT" }).click();
  await expect(
    page.getByText(
      `Your wallet holds no BNB, FIRE, QUARK or USDT to pay the network fee of the claim. Send BNB or one of these tokens to ${account.wallet} first.`,
    ),
  ).toBeVisible();
  await expect(page.getByText("No awards yet")).toBeVisible();
  await expect(rebateRow(page, "USDT").getByRole("button", { name: "Claim USDT" })).toBeVisible();
});
