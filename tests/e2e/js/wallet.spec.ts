import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { DEMO } from "../fixtures";
import { anvilKey, installTestWallet } from "../wallet";

/** #0 is the demo account's bound wallet; #1 is another wallet. */
const ACCOUNT_0 = anvilKey(0);
const ACCOUNT_1 = anvilKey(1);

const MISMATCH =
  "The wallet address of the current metamask connection is inconsistent with the wallet address that bound to your account.";
const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-6)}`;

function walletButton(page: Page) {
  return page.getByTestId("wallet-button");
}

async function connect(page: Page, wallet: "MetaMask" | "OKX Wallet" = "MetaMask") {
  await walletButton(page).click();
  // The enabled button replaces the static, disabled one once the island has loaded; click waits for it.
  await page.getByRole("button", { name: new RegExp(`^${wallet}`) }).click();
}

test("the wallet sheet loads wagmi only when opened, connects MetaMask and shows the short address", async ({ page }) => {
  const wallet = await installTestWallet(page, { privateKey: ACCOUNT_0 });
  const islandChunks: string[] = [];
  page.on("request", (request) => {
    if (/wallet-sheet\.client|wagmi/.test(request.url())) islandChunks.push(request.url());
  });
  await page.goto("/home");
  await expect(walletButton(page)).toHaveText("Connect Wallet");
  // The watcher has loaded by now (it fills the header after hydration); the sheet's island has not.
  await page.waitForLoadState("networkidle");
  expect(islandChunks).toEqual([]);

  await connect(page);
  expect(islandChunks.some((url) => url.includes("wallet-sheet.client"))).toBe(true);
  await expect(walletButton(page)).toHaveText(short(wallet.address));
  await expect(page.getByTestId("wallet-address")).toHaveText(wallet.address);
  await expect(page.getByRole("button", { name: "WalletConnect" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Coinbase Wallet" })).toBeDisabled();

  // Remembered across a reload, without loading wagmi.
  islandChunks.length = 0;
  await page.reload();
  await expect(walletButton(page)).toHaveText(short(wallet.address));
  expect(islandChunks).toEqual([]);

  await walletButton(page).click();
  await page.getByRole("button", { name: "Log out of the wallet" }).click();
  await expect(walletButton(page)).toHaveText("Connect Wallet");
  await page.reload();
  await expect(walletButton(page)).toHaveText("Connect Wallet");
});

test("the sheet copies the connected address", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const wallet = await installTestWallet(page, { privateKey: ACCOUNT_0 });
  await page.goto("/game");
  await connect(page);
  await page.getByRole("button", { name: "Copy address" }).click();
  await expect(page.getByText("Copy success")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(wallet.address);
});

test("with two extensions, the one chosen is remembered as the preferred wallet (product §4)", async ({ page }) => {
  await installTestWallet(page, { privateKey: ACCOUNT_0, kind: "metamask" });
  const okx = await installTestWallet(page, { privateKey: ACCOUNT_1, kind: "okx" });
  await page.goto("/home");
  await connect(page, "OKX Wallet");
  await expect(walletButton(page)).toHaveText(short(okx.address));
  expect(await page.evaluate(() => localStorage.getItem("preferredWallet"))).toBe("okx");
  await page.reload();
  // The watcher asks the preferred (OKX) provider, not window.ethereum (MetaMask).
  await expect(walletButton(page)).toHaveText(short(okx.address));
});

test("a wallet that announces itself through EIP-6963 only, with no injected global, is connected and watched", async ({ page }) => {
  const okx = await installTestWallet(page, { privateKey: ACCOUNT_1, kind: "okx", globals: false });
  await page.goto("/home");
  await connect(page, "OKX Wallet");
  await expect(walletButton(page)).toHaveText(short(okx.address));
  // After a reload only the watcher fills the header; it is mounted for an announced wallet too.
  await page.reload();
  await expect(walletButton(page)).toHaveText(short(okx.address));
  // With no preference stored, the default (MetaMask, window.ethereum) is absent: the announced wallet is asked.
  await page.evaluate(() => localStorage.removeItem("preferredWallet"));
  await page.reload();
  await expect(walletButton(page)).toHaveText(short(okx.address));
  const reloaded = page.waitForEvent("load");
  await okx.switchChain(56);
  await expect(page.getByRole("status").filter({ hasText: "Network switch" })).toBeVisible();
  await reloaded;
});

test("choosing a wallet that is not installed asks to install it", async ({ page }) => {
  await page.goto("/home");
  await connect(page, "OKX Wallet");
  await expect(page.getByText("Please install the OKX Wallet plugin first.")).toBeVisible();
  await expect(walletButton(page)).toHaveText("Connect Wallet");
});

test("an account switch toasts, reloads and shows the mismatch bar", async ({ page, signIn }) => {
  const wallet = await installTestWallet(page, { privateKey: ACCOUNT_0 });
  await signIn(page, DEMO);
  await page.goto("/home");
  await connect(page);
  await expect(walletButton(page)).toHaveText(short(wallet.address));
  await expect(page.getByText(MISMATCH)).toBeHidden();

  const reloaded = page.waitForEvent("load");
  const other = await wallet.switchAccount(ACCOUNT_1);
  await expect(page.getByRole("status").filter({ hasText: "accounts switch" })).toBeVisible();
  await reloaded;
  await expect(walletButton(page)).toHaveText(short(other));
  const bar = page.locator("#notice-bar").getByRole("alert");
  await expect(bar).toHaveText(MISMATCH);

  // Back on the bound wallet, the bar goes.
  await wallet.switchAccount(ACCOUNT_0);
  await expect(bar).toBeHidden();
});

test("a network switch toasts and reloads the page", async ({ page }) => {
  const wallet = await installTestWallet(page, { privateKey: ACCOUNT_0 });
  await page.goto("/home");
  await connect(page);
  await expect(walletButton(page)).toHaveText(short(wallet.address));
  const reloaded = page.waitForEvent("load");
  await wallet.switchChain(56);
  await expect(page.getByRole("status").filter({ hasText: "Network switch" })).toBeVisible();
  await reloaded;
});
