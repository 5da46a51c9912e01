/** Sign in with a wallet (issue 29 item 3, decision 0019): the login page's EIP-4361 sign-in with the injected test wallet. */
import { generatePrivateKey } from "viem/accounts";
import { expect, test } from "../accounts";
import { accountButton } from "../fixtures";
import { installTestWallet } from "../wallet";

const NO_STOCK = { balances: {}, items: {} };

test("a user whose wallet is bound signs in with it and lands signed in where the login was asked for", async ({ page, createAccount }) => {
  const account = await createAccount({ wallet: "browser", stock: NO_STOCK, tag: "siwe" });
  await installTestWallet(page, { privateKey: account.key! });
  const islandChunks: string[] = [];
  page.on("request", (request) => /wallet-sign-in\.client/.test(request.url()) && islandChunks.push(request.url()));
  await page.goto("/login?redirect=/loyalty");
  const button = page.getByRole("button", { name: "Sign in with a wallet" });
  await expect(button).toBeVisible();
  await expect(page.getByTestId("wallet-sign-in-needs")).toHaveCount(0);
  // The wallet code waits for the click.
  await page.waitForLoadState("networkidle");
  expect(islandChunks).toEqual([]);

  await button.click();
  await expect(page).toHaveURL((url) => url.pathname === "/loyalty");
  await expect(accountButton(page, account.email)).toBeVisible();
  expect(islandChunks).toHaveLength(1);
});

test("the wallet sign-in's post never redirects off-site", async ({ page, createAccount }) => {
  const account = await createAccount({ wallet: "browser", stock: NO_STOCK, tag: "siwe-redirect" });
  await installTestWallet(page, { privateKey: account.key! });
  // The post's redirectTo is changed on its way, as a forged form would carry it.
  await page.route(/\/login(\.data)?(\?|$)/, (route) => {
    const form = new URLSearchParams(route.request().postData() ?? "");
    if (route.request().method() !== "POST" || form.get("intent") !== "wallet-sign-in") return route.continue();
    form.set("redirectTo", "//evil.example");
    return route.continue({ postData: form.toString() });
  });
  await page.goto("/login?redirect=/loyalty");
  await page.getByRole("button", { name: "Sign in with a wallet" }).click();
  // Not /loyalty either: the changed redirectTo was read, and refused for /home.
  await expect(page).toHaveURL((url) => url.hostname === "127.0.0.1" && url.pathname === "/home");
  await expect(accountButton(page, account.email)).toBeVisible();
});

test("a replayed signature is refused with words next to the button", async ({ page, browser, createAccount }) => {
  const account = await createAccount({ wallet: "browser", stock: NO_STOCK, tag: "siwe-replay" });
  await installTestWallet(page, { privateKey: account.key! });
  let signedMessage = "";
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/login"))
      signedMessage = new URLSearchParams(request.postData() ?? "").get("message") ?? "";
  });
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with a wallet" }).click();
  await expect(accountButton(page, account.email)).toBeVisible();
  expect(signedMessage).toContain("wants you to sign in with your Ethereum account");

  // Another browser gets the spent message instead of a fresh one: the wallet signs the same bytes, the SSO refuses.
  const context = await browser.newContext();
  const replay = await context.newPage();
  await installTestWallet(replay, { privateKey: account.key! });
  await replay.route("**/resources/wallet-sign-in", (route) => route.fulfill({ json: { message: signedMessage } }));
  await replay.goto("/login");
  await replay.getByRole("button", { name: "Sign in with a wallet" }).click();
  await expect(replay.getByRole("alert")).toHaveText("This sign-in message was already used, please sign again");
  await expect(replay).toHaveURL((url) => url.pathname === "/login");
  await expect(replay.getByRole("button", { name: "Sign in with a wallet" })).toBeEnabled();
  await context.close();
});

test("a wallet bound to no account is told so", async ({ page }) => {
  await installTestWallet(page, { privateKey: generatePrivateKey() });
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with a wallet" }).click();
  await expect(page.getByRole("alert")).toHaveText("No account is bound to this wallet, please sign in with email and bind it first");
});

test("without a wallet extension the login page does not offer a wallet sign-in", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("button", { name: "Sign in with a wallet" })).toHaveCount(0);
});
