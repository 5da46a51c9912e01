import { expect, test } from "../accounts";
import { accountButton, readCodeFromOutbox, uniqueEmail } from "../fixtures";

test("a visitor is asked to log in for an invite code", async ({ page }) => {
  await page.goto("/invite");
  await expect(page.getByRole("link", { name: "Log in" })).toHaveAttribute("href", "/login?redirect=%2Finvite");
});

test("an invite link brings a friend who counts once they have a wallet", async ({ page, browser, createAccount, signIn }) => {
  await signIn(page, await createAccount({ stock: {} }));
  await page.goto("/invite");
  const code = (await page.getByTestId("invite-code").innerText()).trim();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  const link = (await page.getByTestId("invite-link").innerText()).trim();
  expect(link).toMatch(new RegExp(`/login\\?act=reg&code=${code}$`));
  await expect(page.locator("dt:has-text('Friends invited') + dd")).toHaveText("0");
  const poster = await page.request.get("/invite/poster.svg");
  expect(poster.headers()["content-type"]).toContain("image/svg+xml");
  expect(await poster.text()).toContain(code);

  // The friend, in a browser of their own (JavaScript off too).
  const friend = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  const email = uniqueEmail("friend");
  await friend.goto(new URL(link).pathname + new URL(link).search);
  await expect(friend.getByLabel("Referral code (optional)")).toHaveValue(code);
  await friend.getByLabel("Email").fill(email);
  await friend.getByRole("button", { name: "Send code" }).click();
  await friend.getByLabel("Verification code").fill(await readCodeFromOutbox(friend, email));
  await friend.getByLabel("Password").fill("Friend-pass-1");
  await friend.getByRole("button", { name: "Register" }).click();
  await expect(accountButton(friend, email)).toBeVisible();
  await friend.goto("/invite");
  await expect(friend.getByText("Please bind a wallet address")).toBeVisible();
  await friend.getByRole("link", { name: "Bind now" }).click();
  await friend.getByRole("button", { name: "Create a managed wallet" }).click();
  await expect(friend).toHaveURL(/\/invite$/);
  await expect(friend.getByTestId("invite-code")).toBeVisible();

  await page.reload();
  await expect(page.locator("dt:has-text('Friends invited') + dd")).toHaveText("1");
});
