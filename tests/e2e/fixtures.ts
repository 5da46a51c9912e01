import { expect, type Page } from "@playwright/test";

export const DEMO = { email: "demo@sparkera.test", password: "Demo-pass-1" };
export const MANAGED = { email: "managed@sparkera.test", password: "Demo-pass-1" };
export const BUYER = { email: "buyer@sparkera.test", password: "Demo-pass-1" };

/** A fresh address per test run, so registration tests never collide. */
export function uniqueEmail(tag: string) {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@sparkera.test`;
}

/** Reads the newest verification code sent to `email` from the dev outbox page, as a developer would. */
export async function readCodeFromOutbox(page: Page, email: string): Promise<string> {
  const outbox = await page.context().newPage();
  try {
    await outbox.goto("/dev/outbox");
    const mail = outbox.locator("article", { hasText: `To ${email}` }).first();
    await expect(mail).toBeVisible();
    const text = await mail.innerText();
    const match = /verification code is (\d{6})/.exec(text);
    if (!match) throw new Error(`No code in the mail to ${email}: ${text}`);
    return match[1];
  } finally {
    await outbox.close();
  }
}

/** Logs in through the real form (works with JavaScript on or off). */
export async function logIn(page: Page, account: { email: string; password: string }, redirect = "/home") {
  await page.goto(`/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(accountButton(page, account.email)).toBeVisible();
}

/** The header's Login button once signed in: it shows the user name and opens the account sheet. */
export function accountButton(page: Page, userName: string) {
  return page.getByRole("banner").locator("summary").filter({ hasText: userName });
}

/** Opens the first of the account's items (storage, "My items") that it can list: in the game and not on sale. */
export async function openSellableItem(page: Page, skip: string[] = []): Promise<{ url: string; tokenId: string; nftType: string }> {
  const hrefs: string[] = [];
  for (const nftType of [0, 1, 2, 3, 4, 5, 6, 7, 8]) {
    await page.goto(`/marketplace/storage?nftType=${nftType}`);
    hrefs.push(...(await page.locator('main a[href^="/marketplace/detail?"]').evaluateAll((links) => links.map((link) => link.getAttribute("href")!))));
    if (hrefs.length > skip.length + 6) break;
  }
  for (const href of [...new Set(hrefs)]) {
    const params = new URL(href, "http://x").searchParams;
    const tokenId = params.get("tokenId")!;
    if (skip.includes(tokenId)) continue;
    await page.goto(href);
    if (await page.getByRole("button", { name: "List for sale" }).count()) return { url: href, tokenId, nftType: params.get("nftType")! };
  }
  throw new Error("The account has no item it can list");
}
