import { expect, test } from "@playwright/test";
import { PHONE } from "../mobile";
import { reachTests } from "../reach";

reachTests({ javaScript: false });

test("the dev outbox is no wider than a phone, its mails' long addresses broken", async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: PHONE, javaScriptEnabled: false })).newPage();
  // A registration code sent to a long address: its mail names the address in one word.
  const email = `a-very-long-mailbox-name-for-the-outbox-${Date.now()}@an-equally-long-subdomain.sparkera.test`;
  await page.goto("/login?act=reg");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
  await page.goto("/dev/outbox");
  await expect(page.getByText(`To ${email}`).first()).toBeVisible();
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});
