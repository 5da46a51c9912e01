/**
 * The loyalty pages with JavaScript on, without moving the chain's clock: a managed wallet's deposit form answers
 * in place next to the field, the pages pass axe with a wallet known, and a visitor who connected a browser wallet
 * sees that wallet's stakes on /loyalty without logging in (the page looks it up by itself).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { seriousViolations } from "../axe";
import { anvilKey, installTestWallet } from "../wallet";

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-6)}`;

async function connectMetaMask(page: Page) {
  await page.getByTestId("wallet-button").click();
  await page.getByRole("button", { name: /^MetaMask/ }).click();
}

test("a managed wallet's deposit form answers next to the field in place, and the loyalty pages pass axe", async ({
  page,
  createAccount,
  signIn,
}) => {
  const account = await createAccount({ wallet: "managed", stock: {}, chain: { BNB: 1, FIRE: 300 } });
  await signIn(page, account);
  await page.goto("/loyalty");
  await expect(page.getByTestId("stakes-wallet")).toHaveText(`Your wallet ${account.wallet} holds 300 FIRE.`);
  await expect(page.getByTestId("pool-1").getByTestId("your-stake")).toHaveText("Your stake: 0 FIRE, earning 0 Standard loot boxes.");
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("link", { name: "Stake: Standard Pool" }).click();
  const amount = page.getByLabel("Amount to stake (FIRE)");
  await amount.fill("40");
  await page.getByRole("button", { name: "Deposit", exact: true }).click();
  await expect(amount).toHaveAccessibleDescription(/^Stake at least the pool's threshold of 100 FIRE\./);
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(amount).toHaveValue("40");
  expect(await seriousViolations(page)).toEqual([]);

  // The countdown ticks in the browser.
  const countdown = page.getByTestId("countdown");
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first!, { timeout: 5_000 });

  await page.goto("/loyalty/rewards/1");
  await expect(page.getByTestId("claimed-summary")).toHaveText("Claimed: 0 Standard loot boxes.");
  await expect(page.getByText("No deposits or withdrawals in this pool yet.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("a visitor with a connected browser wallet sees its stakes on /loyalty without logging in", async ({ page }) => {
  const wallet = await installTestWallet(page, { privateKey: anvilKey(0) });
  await page.goto("/loyalty");
  await expect(page.getByLabel("See a wallet's stakes")).toBeVisible();
  await connectMetaMask(page);
  await expect(page.getByTestId("wallet-button")).toHaveText(short(wallet.address));
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("stakes-wallet")).toHaveText(new RegExp(`^Wallet ${wallet.address} holds [\\d,.]+ FIRE\\.$`));
  await expect(page.getByTestId("pool-1").getByTestId("your-stake")).toBeVisible();
});
