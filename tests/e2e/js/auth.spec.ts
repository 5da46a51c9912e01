import { expect, test } from "../accounts";
import { generatePrivateKey } from "viem/accounts";
import { accountButton, DEMO, readCodeFromOutbox, uniqueEmail } from "../fixtures";
import { injectTestWallet } from "../wallet";

test("the login form validates as the user types and signs in without a full reload", async ({ page }) => {
  await page.goto("/login?redirect=/loyalty");
  // A marker on window survives client-side navigation only.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  const email = page.getByLabel("Email");
  await email.fill("demo@");
  await email.blur();
  await expect(page.getByText("The user name format is incorrect")).toBeVisible();
  await email.fill(DEMO.email);
  await expect(page.getByText("The user name format is incorrect")).toBeHidden();
  await page.getByLabel("Password").fill("abc");
  await page.getByLabel("Password").blur();
  await expect(page.getByText("The password contains 6 to 18 characters")).toBeVisible();
  await page.getByLabel("Password").fill(DEMO.password);
  await expect(page.getByText("The password contains 6 to 18 characters")).toBeHidden();
  await page.getByRole("button", { name: "Log in" }).click();
  // The path itself: "/login?redirect=/loyalty" also ends in "/loyalty".
  await expect(page).toHaveURL((url) => url.pathname === "/loyalty");
  await expect(accountButton(page, DEMO.email)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test("the register form checks in the browser what its button needs, in the product's words, before any post", async ({ page }) => {
  await page.goto("/login?act=reg");
  const posts: string[] = [];
  page.on("request", (request) => request.method() === "POST" && posts.push(request.url()));
  const email = page.getByLabel("Email");
  const code = page.getByLabel("Verification code");
  // "Send code" needs only the email, checked by userInfoValidate's rule: the empty code and password say nothing.
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter the 6-digit code from your email")).toBeHidden();
  // "Register" needs every field, and the first wrong one gets the focus.
  await email.fill("new-player@sparkera.test");
  await code.fill("12");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Enter the 6-digit code from your email")).toBeVisible();
  await expect(page.getByText(/^The password contains 6 to 18 characters, including/)).toBeVisible();
  await expect(code).toBeFocused();
  await code.fill("123456");
  await expect(page.getByText("Enter the 6-digit code from your email")).toBeHidden();
  await expect(code).not.toHaveAttribute("aria-invalid");
  expect(posts).toEqual([]);
});

test("bind a browser wallet through the injected wallet", async ({ page }) => {
  const email = uniqueEmail("bind");
  const address = await injectTestWallet(page, { privateKey: generatePrivateKey() });
  await page.goto("/login?act=reg");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
  await page.getByLabel("Verification code").fill(await readCodeFromOutbox(page, email));
  await page.getByLabel("Password").fill("Bind-pass-1");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(accountButton(page, email)).toBeVisible();

  // The wallet code waits for the click (issue 42: it loaded on render).
  const islandChunks: string[] = [];
  page.on("request", (request) => /bind-wallet\.client/.test(request.url()) && islandChunks.push(request.url()));
  await page.goto("/login?act=connect&redirect=/marketplace/storage");
  const bind = page.getByRole("button", { name: "Sign with browser wallet" });
  await expect(bind).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(islandChunks).toEqual([]);
  await bind.click();
  await expect(page).toHaveURL((url) => url.pathname === "/marketplace/storage");
  expect(islandChunks).toHaveLength(1);
  await expect(page.getByText("Your wallet is bound to your account.")).toBeVisible();
  await accountButton(page, email).click();
  await expect(page.getByText(`Bound wallet ${address}`)).toBeVisible();
});

test("the account sheet copies the email with a toast", async ({ page, context, signIn }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, DEMO);
  await page.goto("/home");
  await accountButton(page, DEMO.email).click();
  await page.getByRole("button", { name: "Copy email" }).click();
  await expect(page.getByText("Copy success")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(DEMO.email);
});
