/**
 * Issue 12 acceptance, JavaScript off: a managed wallet buys and opens loot boxes through the web path (the SSO
 * executor signs), following each action on its status page, which refreshes itself until the action is final.
 * Every account here is the test's own, funded on chain by the fixtures; the chain is read directly to check.
 */
import type { Page } from "@playwright/test";
import type { Address } from "viem";
import { hiddenForm } from "../../fuzz/client";
import { type AccountFixtures, expect, test } from "../accounts";
import type { ChainFunds } from "../chain-funds";
import { formatPrice, WEI_PER_TOKEN } from "~core/money";
import { chainReader, reviewedFee, waitForOutcome } from "../managed-chain";

const WEI = WEI_PER_TOKEN;

/** A fresh managed-wallet account holding `chain`, signed in, on the box page. */
async function managedOnBox({ page, createAccount, signIn }: { page: Page } & AccountFixtures, typeBox: number, chain: ChainFunds) {
  const account = await createAccount({ wallet: "managed", stock: {}, chain });
  await signIn(page, account);
  await page.goto(`/lootbox/${typeBox}`);
  return account.wallet!;
}

/** The progress list's rows, as text. */
const steps = (page: Page) => page.getByRole("list", { name: "Progress" }).getByTestId("progress-step");

async function buy(page: Page, currency: string, quantity: number) {
  await page.getByRole("radio", { name: new RegExp(`^${currency}`) }).check();
  await page.getByLabel("Quantity").selectOption(String(quantity));
  await page.getByRole("button", { name: "Buy", exact: true }).click();
}

test("buy 2 Standard boxes with USDT: approve, buy, mined; the wallet pays exactly the price; open all and see the items, then in storage", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(90_000);
  const chain = chainReader();
  const wallet = await managedOnBox({ page, createAccount, signIn }, 4, { BNB: 1, USDT: 100 });
  const [before, price] = await Promise.all([chain.balance("USDT", wallet), chain.price(4, "USDT")]);
  await expect(page.getByRole("list", { name: "Balances" })).toContainText("100 USDT");
  await expect(page.getByTestId("buy-limit")).toHaveText("Up to 10 in one purchase.");

  const posted = Date.now();
  await buy(page, "USDT", 2);
  await waitForOutcome(page);
  test.info().annotations.push({ type: "buy post → mined (ms)", description: String(Date.now() - posted) });
  // The head's meta refresh brought the page this far; once the action is final it is gone.
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  await expect(page).toHaveTitle("Buy 2 Standard loot boxes with USDT | Spark Era");
  await expect(steps(page)).toHaveText([
    /^Queued: taken up/,
    new RegExp(`^Approve ${(price * 2n) / WEI} USDT: mined in block \\d+Transaction 0x[0-9a-f]{64}, block \\d+$`),
    new RegExp(`^Buy 2 Standard loot boxes for ${(price * 2n) / WEI} USDT: mined in block \\d+`),
    /^Now Mined: all done in block \d+/,
  ]);
  await expect(steps(page).last()).toHaveAttribute("aria-current", "step");
  expect(before - (await chain.balance("USDT", wallet))).toBe(price * 2n);
  const bought = (await chain.boxes(wallet)).filter((box) => box.typeBox === 4).map((box) => `#${box.id}`);
  expect(bought).toHaveLength(2);
  await expect(page.getByTestId("new-boxes")).toHaveText(bought.join(", "));

  await page.getByRole("link", { name: "Back to the loot box" }).click();
  await page.getByRole("button", { name: "Open all 2" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Open 2 loot boxes | Spark Era");
  const items = page.getByRole("list", { name: "New items" }).getByTestId("opened-item");
  // A Standard box holds a hero card and a material, each shown with its attributes.
  await expect(items).toHaveCount(4);
  await expect(items.filter({ hasText: "Hero card" })).toHaveCount(2);
  await expect(items.filter({ hasText: "Material" })).toHaveCount(2);
  await expect(items.filter({ hasText: "Hero card" }).first()).toContainText("Rarity");
  expect((await chain.boxes(wallet)).filter((box) => box.typeBox === 4)).toEqual([]);

  // The market backend's chain indexer brings the new items into storage.
  const tokenIds = await items.evaluateAll((nodes) => nodes.map((node) => /#(\d+)/.exec(node.textContent ?? "")![1]));
  await page.getByRole("link", { name: "Your storage" }).click();
  await expect(async () => {
    await page.reload();
    for (const id of tokenIds) await expect(page.locator(`a[href*="tokenId=${id}&"]`).first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
});

test("the V3-Galaxy box: bought twice in QUARK, and a third purchase is refused with the 24-hour limit", async ({
  page,
  createAccount,
  signIn,
  context,
}) => {
  test.setTimeout(90_000);
  await managedOnBox({ page, createAccount, signIn }, 18, { BNB: 1, QUARK: 1_000 });
  await expect(page.getByRole("radio")).toHaveCount(1);
  await expect(page.getByRole("radio")).toHaveAccessibleName(/^QUARK/);
  await expect(page.getByTestId("buy-limit")).toHaveText("Up to 2 in one purchase; 2 more in your current 24 hours.");
  await buy(page, "QUARK", 1);
  await waitForOutcome(page);

  // A second tab opened now still offers one more box when the first tab has bought it.
  const stale = await context.newPage();
  await stale.goto("/lootbox/18");
  await expect(stale.getByTestId("buy-limit")).toHaveText("Up to 1 in one purchase; 1 more in your current 24 hours.");
  await page.goto("/lootbox/18");
  await buy(page, "QUARK", 1);
  await waitForOutcome(page);
  await page.goto("/lootbox/18");
  await expect(page.getByTestId("buy-limit")).toContainText("You have reached the 24-hour limit; you can buy again after");
  await expect(page.getByRole("button", { name: "Buy", exact: true })).toBeDisabled();

  const [refused] = await Promise.all([
    stale.waitForResponse((response) => response.request().method() === "POST"),
    stale.getByRole("button", { name: "Buy", exact: true }).click(),
  ]);
  expect(refused.status()).toBe(400);
  await expect(stale.getByRole("alert")).toHaveText(
    /^V3-Galaxy loot box: at most 2 per player per 24 hours, and you have bought 2\. You can buy again after \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
  );
});

test("the same buy form posted twice at once buys once", async ({ page, createAccount, signIn, baseURL }) => {
  test.setTimeout(60_000);
  const chain = chainReader();
  const wallet = await managedOnBox({ page, createAccount, signIn }, 5, { BNB: 1, USDT: 100 });
  const before = await chain.balance("USDT", wallet);
  const form = hiddenForm(await page.content(), "buy");
  expect(form).not.toBeNull();
  const post = () =>
    page.request.post("/lootbox/5", {
      form: { ...form!.fields, currency: "USDT", quantity: "1" },
      headers: { Origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
  const answers = await Promise.all([post(), post()]);
  expect(answers.map((answer) => answer.status())).toEqual([303, 303]);
  const [first, second] = answers.map((answer) => answer.headers().location);
  expect(first).toMatch(/^\/actions\/[0-9a-f]{32}\?back=%2Flootbox%2F5$/);
  expect(second).toBe(first);

  await page.goto(first);
  await waitForOutcome(page);
  expect(before - (await chain.balance("USDT", wallet))).toBe(await chain.price(5, "USDT"));
  expect(await chain.boxes(wallet)).toHaveLength(1);
  // One approval and one purchase: nothing ran twice.
  expect(await chain.sent(wallet)).toBe(2);
});

test("a refused purchase comes back as it was posted: the currency and quantity chosen, and why, with a 400", async ({
  page,
  createAccount,
  signIn,
}) => {
  const wallet = await managedOnBox({ page, createAccount, signIn }, 4, { BNB: 1, QUARK: 15 });
  const [refused] = await Promise.all([page.waitForResponse((response) => response.request().method() === "POST"), buy(page, "QUARK", 3)]);
  expect(refused.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText("Transaction failed. You do not have enough balance.");
  await expect(page.getByRole("radio", { name: /^QUARK/ })).toBeChecked();
  await expect(page.getByLabel("Quantity")).toHaveValue("3");
  expect(await chainReader().sent(wallet as Address)).toBe(0);
});

test("a managed wallet without BNB buys and opens a box: each time it reviews the network fee in USDT, confirms, and pays exactly that fee; its BNB stays 0", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(60_000);
  const chain = chainReader();
  const wallet = (await managedOnBox({ page, createAccount, signIn }, 4, { USDT: 100 })) as Address;
  await expect(page.getByTestId("gas-notice")).toHaveText(
    "Your wallet holds no BNB for network fees: the site pays them, for a small fee in FIRE, QUARK or USDT you review first.",
  );
  const [before, price] = await Promise.all([chain.balance("USDT", wallet), chain.price(4, "USDT")]);
  await buy(page, "USDT", 1);

  // Nothing is sent before the fee is confirmed.
  await expect(page).toHaveURL(/\/actions\/review\/[0-9a-f]{32}\?back=%2Flootbox%2F4$/);
  const fee = await reviewedFee(page, "USDT");
  await expect(page.getByRole("list", { name: "The action's steps" }).getByRole("listitem")).toHaveText([
    `Approve ${price / WEI} USDT`,
    `Buy 1 Standard loot box for ${price / WEI} USDT`,
  ]);
  await expect(page.getByTestId("fee-total")).toHaveText(`${formatPrice(price + fee, null)} USDT`);
  expect(await chain.sent(wallet)).toBe(0);

  await page.getByRole("button", { name: "Confirm and pay the fee" }).click();
  await waitForOutcome(page);
  await expect(page.getByRole("list", { name: "Progress" }).getByTestId("progress-step").last()).toContainText("Mined: all done");
  expect(before - (await chain.balance("USDT", wallet))).toBe(price + fee);
  expect(await chain.bnb(wallet)).toBe(0n);
  expect((await chain.boxes(wallet)).filter((box) => box.typeBox === 4)).toHaveLength(1);

  // Back on the review page (a back button), the confirmed fee leads to its action, and nothing is sent again.
  await page.goBack();
  await expect(page).toHaveURL(/\/actions\/[0-9a-f]{32}\?back=/);

  // Opening spends no token: its fee is taken in the one the wallet holds.
  await page.goto("/lootbox/4");
  await page.getByRole("button", { name: "Open all 1" }).click();
  await expect(page).toHaveURL(/\/actions\/review\/[0-9a-f]{32}\?back=%2Flootbox%2F4$/);
  const openFee = await reviewedFee(page, "USDT");
  await expect(page.getByTestId("fee-total")).toHaveText(`${formatPrice(openFee, null)} USDT`);
  const beforeOpen = await chain.balance("USDT", wallet);
  await page.getByRole("button", { name: "Confirm and pay the fee" }).click();
  await waitForOutcome(page);
  await expect(page.getByRole("list", { name: "New items" }).getByTestId("opened-item")).toHaveCount(2);
  expect(beforeOpen - (await chain.balance("USDT", wallet))).toBe(openFee);
  expect(await chain.bnb(wallet)).toBe(0n);
  expect((await chain.boxes(wallet)).filter((box) => box.typeBox === 4)).toEqual([]);
});

test("a Spaceship box opens into its 10 ships", async ({ page, createAccount, signIn }) => {
  test.setTimeout(60_000);
  await managedOnBox({ page, createAccount, signIn }, 17, { BNB: 1, boxes: { 17: 1 } });
  await expect(page.getByText("You have 1 unopened Spaceship loot box.")).toBeVisible();
  await page.getByRole("button", { name: "Open all 1" }).click();
  await waitForOutcome(page);
  const items = page.getByRole("list", { name: "New items" }).getByTestId("opened-item");
  await expect(items).toHaveCount(10);
  await expect(items.filter({ hasText: /^Spaceship/ })).toHaveCount(10);
});
