import { expect, test } from "../accounts";
import { accountButton, DEMO, logIn, readCodeFromOutbox, uniqueEmail } from "../fixtures";

const COMPLEXITY = "The password contains 6 to 18 characters, including at least letters, digits, and symbols, and does not contain Spaces";

test("log in with the demo account, see the user name, log out", async ({ page }) => {
  await logIn(page, DEMO, "/marketplace/statistics");
  await expect(page).toHaveURL(/\/marketplace\/statistics$/);
  const banner = page.getByRole("banner");
  await accountButton(page, DEMO.email).click();
  await expect(page.getByTestId("account-email")).toHaveText(DEMO.email);
  await banner.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/marketplace\/statistics$/);
  await expect(banner.getByRole("link", { name: "Login" })).toBeVisible();
});

test("login shows product-spec messages next to the field, keeps the email and never echoes the password", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("abc");
  const response = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Log in" }).click();
  expect((await response).status()).toBe(400);
  await expect(page.getByText("The user name format is incorrect")).toBeVisible();
  await expect(page.getByText("The password contains 6 to 18 characters")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
  await expect(page.getByLabel("Password")).toHaveValue("");

  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password").fill("Wrong-pass-1");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText(/incorrect/i)).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(DEMO.email);
  await expect(page.getByLabel("Password")).toHaveValue("");
  expect(await page.content()).not.toContain("Wrong-pass-1");
});

test("a redirect to another site is never followed", async ({ page, baseURL }) => {
  await page.goto("/login?redirect=https://evil.example/");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(`${baseURL}/home`);
  await page.goto("/logout?redirect=//evil.example/");
  await expect(page).toHaveURL(`${baseURL}/home`);
});

test("register with an emailed code and the referral from the link, then manage a wallet", async ({ page }) => {
  const email = uniqueEmail("reg");
  await page.goto("/login?act=reg&code=FRIEND42");
  await expect(page.getByLabel("Referral code (optional)")).toHaveValue("FRIEND42");

  // product §5 userInfoValidate checks the email before a code is sent: its words, next to the field, a 400.
  await page.getByLabel("Email").fill("bad-email");
  let answer = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Send code" }).click();
  expect((await answer).status()).toBe(400);
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Invalid email address");
  // An email the SSO's check refuses though it looks like one to the form (two dots in a row).
  await page.getByLabel("Email").fill("two..dots@example.com");
  answer = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Send code" }).click();
  expect((await answer).status()).toBe(400);
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Invalid email address");
  // An email that already has an account says so before any code is sent.
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("This email is already registered");
  await expect(page.getByText(/We sent a 6-digit code/)).toHaveCount(0);

  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  const code = await readCodeFromOutbox(page, email);

  await page.getByLabel("Verification code").fill(code);
  await page.getByLabel("Password").fill("onlyletters");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText(COMPLEXITY)).toBeVisible();

  await page.getByLabel("Password").fill("New-pass-7");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(accountButton(page, email)).toBeVisible();

  // No browser wallet without JavaScript: the managed wallet is the way.
  await page.goto("/login?act=connect&redirect=/marketplace/storage");
  await expect(page.getByText("Binding a browser wallet needs JavaScript.")).toBeVisible();
  await page.getByRole("button", { name: "Create a managed wallet" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/marketplace/storage");
  await expect(page.getByText("Your managed wallet is ready.")).toBeVisible();
  await accountButton(page, email).click();
  await expect(page.getByText(/Managed wallet 0x[0-9a-fA-F]{40}/)).toBeVisible();
});

test("reset a forgotten password in three steps, then log in with the new one", async ({ page, createAccount }) => {
  // An account of its own, so the demo password stays as documented.
  const { email } = await createAccount({ wallet: "none" });
  await page.goto("/forgot-password");

  await page.getByLabel("Email").fill("nope");
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("Please enter a valid email")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();

  await page.getByLabel("Verification code").fill("000000");
  await page.getByRole("button", { name: "Check code" }).click();
  await expect(page.getByRole("alert").or(page.locator("ul[aria-live]"))).not.toHaveCount(0);
  const code = await readCodeFromOutbox(page, email);
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Check code" }).click();
  await expect(page.getByText("Code accepted. Choose a new password.")).toBeVisible();

  await page.getByLabel("New password").fill("bad pass 1");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText(COMPLEXITY)).toBeVisible();
  await page.getByLabel("New password").fill("Second-pass-2");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("Your password has been reset.")).toBeVisible();

  await logIn(page, { email, password: "Second-pass-2" });
});
