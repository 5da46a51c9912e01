import type { Page } from "@playwright/test";
import { createPublicClient, http, parseEther, toFunctionSelector } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { type AccountFixtures, expect, test } from "../accounts";
import { type ChainFunds, mintItems } from "../chain-funds";
import { blindBoxSaleAbi } from "../../../contracts/generated/abi";
import { readDeployment } from "../../../contracts/deployment";
import { encodeItem } from "~core/item-data";
import { e2eDataDir } from "../stock";
import { DEMO, MANAGED } from "../fixtures";
import { anvilKey, E2E_RPC_URL, installTestWallet, APPROVE, sentSelectors } from "../wallet";

const BUY_ERC20 = toFunctionSelector("buyWithErc20(uint256,uint256,address)");
const BUY_NATIVE = toFunctionSelector("buyWithNativeToken(uint256,uint256)");
const OPEN_WITH_IDS = toFunctionSelector("batchOpenWithIds(uint256[])");
const OPEN_BY_COUNT = toFunctionSelector("batchOpen(uint256)");

const status = (page: Page) => page.getByTestId("lootbox-status");

/**
 * A fresh account whose own browser wallet holds `chain` on chain, signed in with that wallet injected, on a box
 * page, connected (the click that loads the wallet island).
 */
async function ownWalletOnBox({ page, createAccount, signIn }: { page: Page } & AccountFixtures, typeBox: number, chain: ChainFunds) {
  const account = await createAccount({ wallet: "browser", stock: {}, chain });
  const wallet = await installTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  await page.goto(`/lootbox/${typeBox}`);
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByRole("button", { name: "Buy" })).toBeVisible();
  return wallet;
}

test("buy a Standard box with USDT (approve, then buy), open 3 and see the new items", async ({ page, createAccount, signIn }) => {
  const wallet = await ownWalletOnBox({ page, createAccount, signIn }, 4, { BNB: 10, USDT: 100, boxes: { 4: 2 } });
  await page.getByRole("radio", { name: /USDT/ }).check();

  // The wallet waits for "the user": the approving step is on screen and a second click does nothing.
  const confirmation = wallet.hold();
  await page.getByRole("button", { name: "Buy" }).click();
  await expect(status(page)).toContainText("Approving USDT: confirm in your wallet");
  await expect(page.getByRole("button", { name: "Please wait…" })).toBeDisabled();
  confirmation.release();

  await expect(status(page)).toContainText(/Confirmed: Bought 1 Standard loot box: #\d+\./, { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([APPROVE, BUY_ERC20]);

  // The wallet's two boxes plus the new one, as the server now reads them.
  await expect(page.getByText("You have 3 unopened Standard loot boxes.")).toBeVisible();
  await page.getByLabel("Boxes to open").fill("3");
  await page.getByRole("button", { name: "Open 3" }).click();
  await expect(status(page)).toContainText("Confirmed: Opened 3 boxes: you got 6 items.", { timeout: 20_000 });
  // "Open 3" names a count, not ids (decision 0018): the wallet holds Standard boxes only, so batchOpen(count).
  expect(sentSelectors(wallet).filter((s) => s === OPEN_BY_COUNT)).toHaveLength(1);
  expect(sentSelectors(wallet).filter((s) => s === OPEN_WITH_IDS)).toHaveLength(0);

  const items = page.getByRole("list", { name: "New items" }).getByTestId("opened-item");
  await expect(items).toHaveCount(6);
  // A Standard box holds a hero card and a material, each shown with its attributes.
  await expect(items.filter({ hasText: "Hero card" })).toHaveCount(3);
  await expect(items.filter({ hasText: "Material" })).toHaveCount(3);
  await expect(items.filter({ hasText: "Hero card" }).first()).toContainText("Rarity");
  await expect(page.getByText("You have no unopened Standard loot boxes.")).toBeVisible();
});

test("buy a Premium box with BNB: no approval, and open it now", async ({ page, createAccount, signIn }) => {
  const wallet = await ownWalletOnBox({ page, createAccount, signIn }, 5, { BNB: 10 });
  await page.getByRole("radio", { name: /BNB/ }).check();
  await expect(page.getByText("Total 0.1 BNB")).toBeVisible();
  const report = page.waitForResponse("**/resources/lootbox-purchase");
  await page.getByRole("button", { name: "Buy" }).click();
  await expect(status(page)).toContainText(/Confirmed: Bought 1 Premium loot box/, { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([BUY_NATIVE]);
  // The server read the purchase from the chain and recorded its analytics event.
  expect(await (await report).json()).toEqual({ recorded: true });

  await page.getByRole("button", { name: "Open now" }).click();
  await expect(status(page)).toContainText("Confirmed: Opened 1 box: you got 3 items.", { timeout: 20_000 });
  await expect(page.getByTestId("opened-item")).toHaveCount(3);
});

test("the V3-Galaxy box is paid in QUARK only and stops at 2 per 24 hours", async ({ page, createAccount, signIn }) => {
  await ownWalletOnBox({ page, createAccount, signIn }, 18, { BNB: 10, QUARK: 1_000 });
  const currencies = page.getByRole("radio");
  await expect(currencies).toHaveCount(1);
  await expect(currencies).toHaveAccessibleName(/QUARK/);
  await expect(page.getByTestId("allowance-18")).toHaveText("You can buy 2 more in your current 24 hours.");

  await page.getByLabel("Quantity").fill("2");
  await expect(page.getByText("Total 200 QUARK")).toBeVisible();
  await page.getByRole("button", { name: "Buy" }).click();
  await expect(status(page)).toContainText("Confirmed: Bought 2 V3-Galaxy loot boxes", { timeout: 20_000 });

  await expect(page.getByTestId("allowance-18")).toContainText("You have reached the 24-hour limit");
  await expect(page.getByRole("button", { name: "Buy" })).toBeDisabled();
  await page.reload();
  await expect(page.getByTestId("allowance-18")).toContainText("You have reached the 24-hour limit; you can buy again after");
  await expect(page.getByRole("button", { name: "Buy" })).toBeDisabled();
});

test("a wallet without enough USDT is told so before anything is sent", async ({ page, createAccount, signIn }) => {
  // It holds BNB but no tokens.
  const wallet = await ownWalletOnBox({ page, createAccount, signIn }, 4, { BNB: 10 });
  await page.getByRole("radio", { name: /USDT/ }).check();
  await page.getByRole("button", { name: "Buy" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Failed:" })).toHaveText(
    "Failed: Transaction failed. You do not have enough balance.",
  );
  expect(wallet.sent).toEqual([]);
});

test("the wallet mode speaks before any transaction: wrong account, then wrong chain", async ({ page, createAccount, signIn }) => {
  const account = await createAccount({ wallet: "browser", stock: {} });
  // The extension is on another account than the one bound.
  const wallet = await installTestWallet(page, { privateKey: generatePrivateKey() });
  await signIn(page, account);
  await page.goto("/lootbox/6");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByText(/^Wallet address is inconsistent/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Buy" })).toBeDisabled();

  await wallet.switchChain(56);
  await page.waitForLoadState("load");
  await expect(page.getByText(/^Wrong chain id/)).toBeVisible({ timeout: 10_000 });
  expect(wallet.sent).toEqual([]);
});

test("a managed-wallet account gets the web path's forms, not the browser-wallet island", async ({ page, signIn }) => {
  // The managed demo account and its seeded boxes, only read.
  await installTestWallet(page, { privateKey: anvilKey(1) });
  await signIn(page, MANAGED);
  await page.goto("/lootbox/4");
  await expect(page.getByRole("button", { name: "Open all 2" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Buy", exact: true })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Connect wallet" })).toHaveCount(0);
  // Its boxes are still listed, read on the server.
  await expect(page.getByRole("list", { name: "Your unopened boxes" })).toContainText("Standard loot box × 2");
});

test("without a wallet extension, connecting opens the install dialog, and buying does again", async ({ page, signIn }) => {
  await signIn(page, DEMO);
  await page.goto("/lootbox/4");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  const dialog = page.getByRole("dialog", { name: "Tips" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Please install the wallet plugin");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^No wallet extension/).first()).toBeVisible();

  await page.getByRole("button", { name: "Buy" }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("a browser wallet holding a PSE sees the PSE holder price and pays exactly it", async ({ page, createAccount, signIn }) => {
  const account = await createAccount({ wallet: "browser", stock: {}, chain: { BNB: 10 } });
  await mintItems(account.wallet!, [encodeItem.pse(2)]);
  const wallet = await installTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  await page.goto("/lootbox/5");
  await expect(page.getByTestId("price-reason")).toHaveText("PSE holder price");
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("radio", { name: /BNB/ }).check();
  // The seeded PSE price: 80 % of the Premium box's 0.1 BNB.
  await expect(page.getByText("Total 0.08 BNB")).toBeVisible();
  await page.getByRole("button", { name: "Buy" }).click();
  await expect(status(page)).toContainText(/Confirmed: Bought 1 Premium loot box/, { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([BUY_NATIVE]);
  // What the sale took, as its own event records it (the wallet's BNB also paid the gas).
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`)!;
  const purchases = await createPublicClient({ transport: http(E2E_RPC_URL) }).getContractEvents({
    address: deployment.contracts.boxSale,
    abi: blindBoxSaleAbi,
    eventName: "BoxesPurchased",
    args: { buyer: account.wallet! },
    fromBlock: 0n,
  });
  expect(purchases.map((event) => event.args.amountPaid)).toEqual([parseEther("0.08")]);
});
