import { expect, test } from "../accounts";
import { accountButton } from "../fixtures";

test("with JavaScript, the header's Log out and the confirmation after a foreign logout link both sign out", async ({
  page,
  baseURL,
  createAccount,
  signIn,
}) => {
  const account = await createAccount({ wallet: "none" });
  await signIn(page, account);
  await page.goto("/marketplace/statistics");
  await accountButton(page, account.email).click();
  await page.getByRole("banner").getByRole("button", { name: "Log out", exact: true }).click();
  await expect(page).toHaveURL(`${baseURL}/marketplace/statistics`);
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toBeVisible();

  await signIn(page, account);
  await page.route("http://evil.test/", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><a href="${baseURL}/logout?redirect=%2Fmarketplace%2Fmarket">Win a prize</a>`,
    }),
  );
  await page.goto("http://evil.test/");
  await page.getByRole("link", { name: "Win a prize" }).click();
  await expect(page.getByRole("heading", { name: "Log out of Spark Era?" })).toBeVisible();
  await expect(accountButton(page, account.email)).toBeVisible();
  await page.getByRole("main").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/marketplace\/market/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toBeVisible();
});
