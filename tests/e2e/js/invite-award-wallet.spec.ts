/**
 * Issue 29, JavaScript on, a browser wallet: "Claim USDT" on /invite loads the award island, the game signs the
 * rebate as an award and the wallet sends awardClaim to the reward manager; the wallet's USDT rises by exactly the
 * rebate and the award shows paid once the indexer has seen it.
 */
import { toFunctionSelector } from "viem";
import { expect, test } from "../accounts";
import { chainReader, reloadUntil } from "../managed-chain";
import { installTestWallet } from "../wallet";

const AWARD_CLAIM = toFunctionSelector("awardClaim(address,bytes,uint8,bytes32,bytes32)");
const REBATE = 7_000_000_000_000_000_123n;

test("a browser wallet claims a USDT rebate to the chain through the award island", async ({ page, createAccount, signIn }) => {
  test.setTimeout(90_000);
  const read = chainReader();
  const account = await createAccount({ wallet: "browser", stock: { rebates: { USDT: REBATE.toString() } }, chain: { BNB: 10 } });
  const wallet = await installTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  await page.goto("/invite");
  const before = await read.balance("USDT", account.wallet!);

  const usdt = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "USDT", exact: true }) });
  await usdt.getByRole("button", { name: "Claim USDT" }).click();
  // The row's own island: once the page is read again, the new award's row has one of its own.
  await expect(usdt.getByTestId("award-status")).toContainText("Confirmed: Your USDT rebate is in your wallet.", { timeout: 20_000 });
  expect(wallet.sent.map((tx) => tx.data.slice(0, 10))).toEqual([AWARD_CLAIM]);
  expect(await read.balance("USDT", account.wallet!)).toBe(before + REBATE);
  await expect(page.getByRole("button", { name: "Claim USDT" })).toBeDisabled();
  await reloadUntil(page, (quick) => quick(page.getByTestId("award-row").first()).toHaveAttribute("data-state", "paid"));
});
