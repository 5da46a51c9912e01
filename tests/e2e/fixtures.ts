import { expect, type Page } from "@playwright/test";

/** The seeded demo logins of the README: only read by the tests (a test that changes an account makes its own, accounts.ts). */
export const DEMO = { email: "demo@sparkera.test", password: "Demo-pass-1" };
export const MANAGED = { email: "managed@sparkera.test", password: "Demo-pass-1" };
export const BUYER = { email: "buyer@sparkera.test", password: "Demo-pass-1" };

/** A fresh address per test run, so registration tests never collide. */
export function uniqueEmail(tag: string) {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@sparkera.test`;
}

export interface Mail {
  subject: string;
  body: string;
}

/** The mails the dev outbox holds for `email`, read through its JSON. */
export async function outboxMails(baseURL: string, email: string): Promise<Mail[]> {
  const response = await fetch(new URL(`/dev/outbox.json?to=${encodeURIComponent(email)}`, baseURL));
  return ((await response.json()) as { data: Mail[] }).data;
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

/** Lists the item whose page is open in the game's market, as its owner does: price, currency, "List for sale". */
export async function listForSale(page: Page, price: string, currency = "FIRE") {
  await page.getByLabel("Price").fill(price);
  await page.getByLabel("Currency").selectOption(currency);
  await page.getByRole("button", { name: "List for sale" }).click();
  await expect(page.getByText("Listed for sale.")).toBeVisible();
}
