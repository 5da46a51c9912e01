/**
 * Issue 17, with JavaScript on: what a visitor's browser really downloads, counted from the script responses once
 * the page is idle (lazy islands included), stays within 100 KB gzipped on every page; and on a loot box page a
 * browser with a wallet extension loads no wallet code (wagmi, viem, the island) until the player connects. The
 * no-JS project's js-budget.spec.ts checks the scripts a page lists; this one also catches what loads after them.
 * An item's holder, too, gets the sale and transfer forms without wallet code until a wallet action starts.
 */
import fs from "node:fs";
import { gzipSync } from "node:zlib";
import type { Page, Response } from "@playwright/test";
import { expect, test } from "../accounts";
import { MOBILE_PATHS } from "../mobile";
import { anvilKey, installTestWallet } from "../wallet";

const KB = 1024;

/** The scripts among `urls` (paths under /build/) that hold viem or wagmi code, by the build's metafile. */
function walletLibraryScripts(urls: string[]): string[] {
  const outputs = (JSON.parse(fs.readFileSync("build/metafile.js.json", "utf8")) as { outputs: Record<string, { inputs: object }> })
    .outputs;
  return urls.filter((url) =>
    Object.keys(outputs[`public${url}`]?.inputs ?? {}).some((input) => /node_modules\/(viem|wagmi|@wagmi)\//.test(input)),
  );
}
const BUDGET = 100 * KB;

/** The gzipped bytes of every script the page requested while `load` ran and the page then settled. */
async function scriptBytes(page: Page, load: () => Promise<unknown>): Promise<{ bytes: number; urls: string[] }> {
  const bodies: Promise<number>[] = [];
  const urls: string[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== "script") return;
    urls.push(new URL(response.url()).pathname);
    bodies.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
  };
  page.on("response", onResponse);
  await load();
  await page.waitForLoadState("networkidle");
  page.off("response", onResponse);
  const sizes = await Promise.all(bodies);
  return { bytes: sizes.reduce((sum, size) => sum + size, 0), urls };
}

// One test per page, so that the pages spread over the workers.
for (const path of [...MOBILE_PATHS, "/lootbox/4", "/login"]) {
  test(`${path}: a visitor downloads at most 100 KB of gzipped JavaScript, lazy chunks included`, async ({ browser }) => {
    // A fresh context: nothing cached, as a visitor arriving there.
    const context = await browser.newContext();
    const page = await context.newPage();
    const { bytes } = await scriptBytes(page, () => page.goto(path));
    await context.close();
    expect(bytes, `${(bytes / KB).toFixed(1)} KB`).toBeLessThanOrEqual(BUDGET);
  });
}

test("a loot box page loads the wallet island only when the player connects, even with a wallet extension", async ({ page }) => {
  await installTestWallet(page, { privateKey: anvilKey(3) });
  const opened = await scriptBytes(page, () => page.goto("/lootbox/4"));
  expect(opened.urls.filter((url) => /lootbox-panel|wagmi/.test(url))).toEqual([]);
  expect(opened.bytes).toBeLessThanOrEqual(BUDGET + 2 * KB); // the wallet watcher, for the extension
  await expect(page.getByRole("button", { name: "Buy" })).toHaveCount(0);

  // The page was idle already: wait for the island itself before counting what its click loaded.
  const connected = await scriptBytes(page, async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await expect(page.getByText(/^Wallet 0x/)).toBeVisible();
  });
  expect(connected.urls.some((url) => url.includes("lootbox-panel.client"))).toBe(true);
  await expect(page.getByRole("button", { name: "Buy" })).toBeVisible();

  // Connected once, the wallet's next visit shows the island at once.
  await page.reload();
  await expect(page.getByRole("button", { name: "Buy" })).toBeVisible();
});

test("an item's holder gets the sale and transfer forms, checked as typed, with no viem or wagmi until signing", async ({
  page,
  createAccount,
  signIn,
}) => {
  const account = await createAccount({ wallet: "browser" });
  await installTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  const opened = await scriptBytes(page, async () => {
    await page.goto(account.items[0].url);
    await page.getByLabel("Recipient address").fill("0x123");
    await page.getByRole("button", { name: "Transfer" }).click();
    await expect(page.getByText("Enter a valid wallet address (0x…, checksummed)")).toBeVisible();
  });
  expect(opened.urls.length).toBeGreaterThan(0);
  expect(walletLibraryScripts(opened.urls)).toEqual([]);

  // Signing is the wallet action: its island brings viem.
  const signing = await scriptBytes(page, async () => {
    await page.getByLabel("Price").fill("7.25");
    await page.getByRole("button", { name: "List for sale" }).click();
    await expect(page.getByText("Listed for sale.")).toBeVisible();
  });
  expect(walletLibraryScripts(signing.urls)).not.toEqual([]);
});

test("a browser wallet's offers page loads no viem or wagmi until the wallet signs an offer", async ({ page, createAccount, signIn }) => {
  const account = await createAccount({ wallet: "browser", stock: { balances: { FIRE: 10 } } });
  await installTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  const opened = await scriptBytes(page, async () => {
    await page.goto("/marketplace/market?nftType=0");
    await page.getByRole("link", { name: "Make an offer on any item of this view" }).click();
    await expect(page.getByLabel("Pay from")).toBeVisible();
  });
  expect(opened.urls.some((url) => url.includes("offers-desk"))).toBe(true);
  expect(walletLibraryScripts(opened.urls)).toEqual([]);

  const signing = await scriptBytes(page, async () => {
    await page.getByLabel("Your price").fill("1.5");
    await page.getByRole("button", { name: "Make offer" }).click();
    await expect(page.getByText("Offer made: 1.5 FIRE.")).toBeVisible();
  });
  expect(walletLibraryScripts(signing.urls)).not.toEqual([]);
});
