import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { accountButton } from "../fixtures";

/** Serves `html` as a page at `url`, so a click on it is a real navigation from that page's origin. */
async function servePage(page: Page, url: string, html: string) {
  await page.route(url, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html><html><body>${html}</body></html>` }));
}

test("a logout link on another site asks first, and the button then logs out", async ({ page, baseURL, createAccount, signIn }) => {
  const account = await createAccount({ wallet: "none" });
  await signIn(page, account);
  await servePage(page, "http://evil.test/", `<a href="${baseURL}/logout?redirect=%2Fmarketplace%2Fstatistics">Win a prize</a>`);
  await page.goto("http://evil.test/");
  await page.getByRole("link", { name: "Win a prize" }).click();

  await expect(page.getByRole("heading", { name: "Log out of Spark Era?" })).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/logout?redirect=%2Fmarketplace%2Fstatistics`);
  await expect(accountButton(page, account.email)).toBeVisible();
  await page.goto("/home");
  await expect(accountButton(page, account.email)).toBeVisible();

  await page.goBack();
  await page.getByRole("main").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(`${baseURL}/marketplace/statistics`);
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toBeVisible();
});

test("a logout link on our own pages, or typed in the address bar, logs out at once", async ({ page, baseURL, createAccount, signIn }) => {
  const account = await createAccount({ wallet: "none" });
  await signIn(page, account);
  // A page of our origin: the link is same-origin.
  await servePage(page, `${baseURL}/test-only-link`, `<a href="/logout?redirect=%2Fmarketplace%2Fmarket">Log out</a>`);
  await page.goto("/test-only-link");
  await page.getByRole("link", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/marketplace\/market/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toBeVisible();

  await signIn(page, account);
  await page.goto("/logout?redirect=%2Fmarketplace%2Fstatistics");
  await expect(page).toHaveURL(`${baseURL}/marketplace/statistics`);
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toBeVisible();
});

test("without fetch metadata, or from a sibling site, GET /logout only asks; the form keeps a safe redirect", async ({
  request,
  baseURL,
  createAccount,
}) => {
  const account = await createAccount({ wallet: "none" });
  const login = await request.post("/login", {
    form: { email: account.email, password: account.password, redirectTo: "/home" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(login.status()).toBe(302);

  const noMetadata: Record<string, string> = {};
  for (const headers of [noMetadata, { "Sec-Fetch-Site": "same-site" }, { "Sec-Fetch-Site": "cross-site" }]) {
    const response = await request.get(`/logout?redirect=${encodeURIComponent("/.//evil.example")}`, { headers, maxRedirects: 0 });
    expect(response.status()).toBe(200);
    // One signed-in user's page: no cache may keep it.
    expect(response.headers()["cache-control"]).toBe("no-store");
    const html = await response.text();
    expect(html).toContain("Log out of Spark Era?");
    expect(html).toContain('action="/logout?redirect=%2Fhome"');
  }
  // Still signed in: a signed-in visitor of /login is sent on.
  expect((await request.get("/login", { maxRedirects: 0 })).status()).toBe(302);

  const confirmed = await request.post(`/logout?redirect=${encodeURIComponent("/marketplace/market")}`, {
    form: {},
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(confirmed.status()).toBe(302);
  expect(confirmed.headers().location).toBe("/marketplace/market");
  expect((await request.get("/login", { maxRedirects: 0 })).status()).toBe(200);
});

test("the session-expired dialog's Re-login still logs out and goes to log in", async ({
  page,
  playwright,
  baseURL,
  createAccount,
  signIn,
}) => {
  // With a wallet, so the invite page asks the market.
  await signIn(page, await createAccount({ stock: {} }));
  // The token dies elsewhere (the same cookie logged out from another client); this browser still holds it.
  const other = await playwright.request.newContext({ baseURL, storageState: { cookies: await page.context().cookies(), origins: [] } });
  expect((await other.post("/logout", { form: {}, headers: { Origin: baseURL! }, maxRedirects: 0 })).status()).toBe(302);
  await other.dispose();

  // The invite page asks the market with the token: the 401 becomes product §8's "Tips" dialog.
  await page.goto("/invite");
  await expect(page.getByText("Your login status has expired")).toBeVisible();
  await page.getByRole("button", { name: "Re-login" }).click();
  await expect(page).toHaveURL(`${baseURL}/login?redirect=%2Finvite`);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
});
