/**
 * Issue 13 acceptance, JavaScript off: a managed wallet stakes 100 FIRE in the Standard Pool through the pool
 * page's server forms (the SSO executor signs), is refused a deposit once staking has ended and a withdrawal while
 * the vault is locked, then, with the chain's clock past the vault's end, withdraws and claims, gets its FIRE
 * back, finds the reward box on the rewards page and opens it. Its wallet holds no BNB (issue 46): each action's
 * network fee is reviewed in FIRE first, and the FIRE taken is exactly the fees shown.
 * It moves the chain's clock, so it lives in the chain-time-nojs project and puts the chain back at its end
 * (tests/e2e/chain-clock.ts); its tests run in order, in one worker.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "../../accounts";
import { advanceChainTimePast, restoresChain } from "../../chain-clock";
import { chainReader, confirmReviewedFee, postForm, waitForOutcome } from "../../managed-chain";
import { formatAmount, WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;

restoresChain(test);

const amountField = (page: Page) => page.getByLabel("Amount to stake (FIRE)");
/** A FIRE balance as the pool page shows it. */
const shownFire = (wei: bigint) => formatAmount(wei, "FIRE", "balance");

test("the pages read the pools from the chain: statuses, figures, the formula and a bookmarkable reward preview", async ({ page }) => {
  const read = chainReader();
  const onChain = await read.pool(1);
  await page.goto("/loyalty");
  const card = page.getByTestId("pool-1");
  await expect(card.getByTestId("pool-status")).toHaveText("Open for staking");
  await expect(card).toContainText("Threshold100 FIRE");
  await expect(card.getByTestId("pool-stakers")).toHaveText(onChain.stakingAddrNumber.toLocaleString("en-US"));
  await expect(card.getByTestId("countdown")).toHaveText(/^1[34] d \d+ h \d+ m \d+ s$/);
  for (const id of [2, 3]) await expect(page.getByTestId(`pool-${id}`).getByTestId("pool-status")).toHaveText("Open for staking");

  // A wallet looked up by address; a malformed one is refused next to the field.
  await page.getByLabel("See a wallet's stakes").fill("0x123");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByLabel("See a wallet's stakes")).toHaveAccessibleDescription(
    "Enter a wallet address: 0x followed by 40 hexadecimal characters.",
  );

  await page.goto("/loyalty/page/1?amount=250");
  await expect(page.getByTestId("reward-formula")).toContainText(
    "Every full 100 FIRE of your stake earns one Standard loot box, up to 10 per address, while the pool has boxes left.",
  );
  await expect(page.getByTestId("reward-preview")).toHaveText("A stake of 250 FIRE earns 2 Standard loot boxes.");
  await page.getByLabel("What would a deposit earn? (FIRE)").fill("5000");
  await page.getByRole("button", { name: "Calculate" }).click();
  await expect(page).toHaveURL(/\/loyalty\/page\/1\?amount=5000$/);
  await expect(page.getByTestId("reward-preview")).toHaveText(
    "A stake of 5,000 FIRE earns 10 Standard loot boxes (10 is the most per address).",
  );
  await page.goto("/loyalty/page/1?amount=ten");
  await expect(page.getByTestId("reward-preview")).toHaveText("Enter an amount of FIRE as a number, like 100 or 12.5.");

  expect((await page.goto("/loyalty/page/4"))?.status()).toBe(404);
  expect((await page.goto("/loyalty/rewards/0"))?.status()).toBe(404);
});

test("a managed wallet without BNB stakes 100 FIRE, is refused what the pool does not allow, then withdraws, claims and opens its reward box, each fee reviewed in FIRE", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(120_000);
  const read = chainReader();
  const account = await createAccount({ wallet: "managed", stock: {}, chain: { FIRE: 1_000 } });
  const wallet = account.wallet!;
  await signIn(page, account);
  await page.goto("/loyalty/page/1");
  await expect(page.getByTestId("stake-wallet")).toContainText("holds 1,000 FIRE.");

  // Each bad amount is answered with a 400 and its message next to the field, keeping what was typed; nothing is sent.
  for (const [typed, message] of [
    ["", "Enter an amount of FIRE as a number, like 100 or 12.5."],
    ["12,5", "Enter an amount of FIRE as a number, like 100 or 12.5."],
    ["0", "Enter an amount of FIRE above zero."],
    ["1000.5", "Your wallet holds 1,000 FIRE: enter at most that."],
    ["50", "Stake at least the pool's threshold of 100 FIRE."],
  ] as const) {
    await amountField(page).fill(typed);
    expect((await postForm(page, "Deposit")).status(), typed).toBe(400);
    await expect(amountField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(amountField(page)).toHaveAccessibleDescription(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    await expect(amountField(page)).toHaveValue(typed);
  }
  expect(await read.sent(wallet)).toBe(0);

  // Stake 100 FIRE: its network fee reviewed first, then the status page follows approve and deposit to the end.
  const before = await read.pool(1);
  await amountField(page).fill("100");
  await postForm(page, "Deposit");
  const depositFee = await confirmReviewedFee(page, "FIRE");
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Stake 100 FIRE in the Standard Pool | Spark Era");
  await page.getByRole("link", { name: "Back to the pool" }).click();
  await expect(page).toHaveURL(/\/loyalty\/page\/1$/);
  await expect(page.getByTestId("your-stake")).toHaveText("Your stake: 100 FIRE, earning 1 Standard loot box.");
  await expect(page.getByTestId("stake-wallet")).toContainText(`holds ${shownFire(900n * WEI - depositFee)}.`);
  const total = before.totalStakingTokens + 100n * WEI;
  await expect(page.getByTestId("pool-total")).toHaveText(`${(total / WEI).toLocaleString("en-US")} FIRE`);
  await expect(page.getByTestId("pool-stakers")).toHaveText(String(before.stakingAddrNumber + 1n));
  expect(await read.stake(1, wallet)).toEqual([100n * WEI, 1n]);

  // A page read while staking was open, posted after it ended: refused with the contract's reason, nothing sent.
  const { endStakingTime, endVaultTime } = await read.pool(1);
  await amountField(page).fill("100");
  await advanceChainTimePast(BigInt(endStakingTime));
  expect((await postForm(page, "Deposit")).status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText(
    "Staking in the Standard Pool has ended: it takes no more deposits, and the stakes are locked in the vault.",
  );
  await expect(page.getByTestId("pool-status")).toHaveText("Locked in the vault");
  await expect(amountField(page)).toHaveCount(0);

  // Withdrawing while the vault is locked: refused, naming the date.
  const sentBefore = await read.sent(wallet);
  expect((await postForm(page, "Withdraw and claim")).status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText(
    /^Your stake in the Standard Pool is locked in the vault until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. You can withdraw and claim after that\.$/,
  );
  expect(await read.sent(wallet)).toBe(sentBefore);

  // Past the vault's end: withdraw and claim.
  await advanceChainTimePast(BigInt(endVaultTime));
  // Not a reload: that would post the refused form again.
  await page.goto("/loyalty/page/1");
  await expect(page.getByTestId("pool-status")).toHaveText("Ended: withdraw and claim");
  await expect(page.getByTestId("stake-wallet")).toContainText(`holds ${shownFire(900n * WEI - depositFee)}.`);
  await postForm(page, "Withdraw and claim");
  const withdrawalFee = await confirmReviewedFee(page, "FIRE");
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Withdraw and claim from the Standard Pool | Spark Era");
  const [boxAfter] = (await read.boxes(wallet)).filter((box) => box.typeBox === 4);
  await expect(page.getByTestId("withdrawn")).toContainText(`100 FIRE and 1 Standard loot box: #${boxAfter.id}.`);
  expect(await read.balance("FIRE", wallet)).toBe(1_000n * WEI - depositFee - withdrawalFee);
  expect(await read.stake(1, wallet)).toEqual([0n, 0n]);

  // The rewards page: the claimed box, unopened, and the history read from the contract's events.
  await page.getByRole("link", { name: "Your rewards" }).click();
  await expect(page.getByTestId("claimed-summary")).toHaveText("Claimed: 1 Standard loot box, 1 unopened.");
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(`Withdrawal100 FIREClaimed 1 Standard loot box: #${boxAfter.id}`);
  await expect(rows.nth(2)).toContainText("Deposit100 FIREStake 100 FIRE, earning 1 Standard loot box");

  // Opened through the loot box flow.
  await page.getByRole("list", { name: "Claimed reward boxes" }).getByRole("link", { name: "open it" }).click();
  await expect(page).toHaveURL(/\/lootbox\/4$/);
  await page.getByRole("button", { name: "Open all 1" }).click();
  const openingFee = await confirmReviewedFee(page, "FIRE");
  await waitForOutcome(page);
  expect(await read.balance("FIRE", wallet)).toBe(1_000n * WEI - depositFee - withdrawalFee - openingFee);
  expect(await read.bnb(wallet)).toBe(0n);
  expect((await read.boxes(wallet)).filter((box) => box.typeBox === 4)).toEqual([]);
  await page.goto("/loyalty/rewards/1");
  await expect(page.getByTestId("claimed-summary")).toHaveText("Claimed: 1 Standard loot box, 0 unopened.");
  await expect(page.getByRole("list", { name: "Claimed reward boxes" })).toContainText(`#${boxAfter.id}: opened`);
});
