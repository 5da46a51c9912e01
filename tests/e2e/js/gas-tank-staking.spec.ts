/**
 * Issue 46 with JavaScript on: a managed wallet with FIRE and no BNB stakes from the pool page's server form. It is
 * led to the network fee's review, confirms it, and follows the action to mined in place; the FIRE taken is the
 * stake and exactly the fee it was shown, and its BNB stays 0 (decision 0038).
 */
import type { Address } from "viem";
import { parseTokenAmount, WEI_PER_TOKEN } from "~core/money";
import { expect, test } from "../accounts";
import { seriousViolations } from "../axe";
import { chainReader } from "../managed-chain";

const WEI = WEI_PER_TOKEN;

test("a managed wallet without BNB stakes 100 FIRE for a fee in FIRE, reviewed first", async ({ page, createAccount, signIn }) => {
  test.setTimeout(60_000);
  const read = chainReader();
  const account = await createAccount({ wallet: "managed", stock: {}, chain: { FIRE: 1_000 } });
  const wallet = account.wallet! as Address;
  await signIn(page, account);
  await page.goto("/loyalty/page/1");
  await expect(page.getByTestId("gas-notice")).toContainText("the site pays them, for a small fee");
  await page.getByLabel("Amount to stake (FIRE)").fill("100");
  await page.getByRole("button", { name: "Deposit" }).click();

  await expect(page.getByRole("heading", { name: "Review the network fee" })).toBeVisible();
  await expect(page).toHaveURL(/\/actions\/review\/[0-9a-f]{32}\?back=%2Floyalty%2Fpage%2F1$/);
  const fee = parseTokenAmount((await page.getByTestId("network-fee").textContent())!.replace(/ FIRE$/, "").replaceAll(",", ""))!;
  expect(fee).toBeGreaterThan(0n);
  expect(await seriousViolations(page)).toEqual([]);
  expect(await read.sent(wallet)).toBe(0);

  await page.getByRole("button", { name: "Confirm and pay the fee" }).click();
  await expect(page).toHaveURL(/\/actions\/[0-9a-f]{32}\?back=%2Floyalty%2Fpage%2F1$/);
  await expect(page.getByRole("list", { name: "Progress" }).getByTestId("progress-step").last()).toContainText("Mined: all done", {
    timeout: 20_000,
  });
  expect(await read.balance("FIRE", wallet)).toBe(900n * WEI - fee);
  expect(await read.bnb(wallet)).toBe(0n);
  expect((await read.stake(1, wallet))[0]).toBe(100n * WEI);
});
