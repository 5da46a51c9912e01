/**
 * Issue 46 (5), JavaScript off: the managed demo accounts start as a new player does, with tokens and no BNB, so the
 * demo shows the sponsored path: an on-chain action asks for its network fee in a token before anything is sent.
 * The demo accounts' boxes are read by other tests, so the action is reviewed and then cancelled, never confirmed.
 */
import { expect, test } from "../accounts";
import { MANAGED } from "../fixtures";
import { chainReader } from "../managed-chain";
import { DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT } from "~core/demo";

test("the managed demo accounts hold no BNB; opening the demo player's boxes shows the fee in a token first, and cancelling sends nothing", async ({
  page,
  signIn,
}) => {
  const chain = chainReader();
  const wallet = DEMO_MANAGED_ACCOUNT.wallet;
  expect(await chain.bnb(wallet)).toBe(0n);
  expect(await chain.bnb(DEMO_BUYER_ACCOUNT.wallet)).toBe(0n);
  const sent = await chain.sent(wallet);

  await signIn(page, MANAGED);
  await page.goto("/lootbox/4");
  await expect(page.getByTestId("gas-notice")).toHaveText(
    "Your wallet holds no BNB for network fees: the site pays them, for a small fee in FIRE, QUARK or USDT you review first.",
  );
  await page.getByRole("button", { name: "Open all 2" }).click();

  await expect(page).toHaveURL(/\/actions\/review\/[0-9a-f]{32}\?back=%2Flootbox%2F4$/);
  await expect(page.getByRole("heading", { name: "Review the network fee" })).toBeVisible();
  await expect(page.getByTestId("network-fee")).toHaveText(/^[\d.,]+ (FIRE|QUARK|USDT)$/);
  await expect(page.getByRole("button", { name: "Confirm and pay the fee" })).toBeInViewport();
  expect(await chain.sent(wallet)).toBe(sent);

  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/lootbox\/4$/);
  await expect(page.getByRole("button", { name: "Open all 2" })).toBeVisible();
  expect(await chain.sent(wallet)).toBe(sent);
  expect(await chain.bnb(wallet)).toBe(0n);
});
