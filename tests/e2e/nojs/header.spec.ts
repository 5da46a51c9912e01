import { expect, test } from "../accounts";

test("the menu opens and its links navigate without JavaScript", async ({ page }) => {
  const targets = [
    { name: "Game", url: /\/game$/ },
    { name: "Home", url: /\/home$/ },
    { name: "Storage", url: /\/marketplace\/storage$/ },
    { name: "Loyalty Program", url: /\/loyalty$/ },
    { name: "Referral", url: /\/invite$/ },
  ];
  for (const target of targets) {
    await page.goto("/stripe/demo");
    const menu = page.getByRole("navigation", { name: "Main menu" });
    await expect(menu).toBeHidden();
    await page.getByLabel("Menu", { exact: true }).click();
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: target.name, exact: true }).click();
    await expect(page).toHaveURL(target.url);
  }
});

test("the menu lists the four external entries from configuration", async ({ page }) => {
  await page.goto("/home");
  await page.getByLabel("Menu", { exact: true }).click();
  const menu = page.getByRole("navigation", { name: "Main menu" });
  for (const name of ["Spark Era home page", "Reward extraction system", "Exchange system", "Whitepaper"]) {
    const link = menu.getByRole("link", { name: new RegExp(name) });
    await expect(link).toHaveAttribute("href", /^https:\/\//);
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  }
});

test("the Login button links to /login with the current path", async ({ page }) => {
  await page.goto("/marketplace/statistics");
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toHaveAttribute(
    "href",
    "/login?redirect=%2Fmarketplace%2Fstatistics",
  );
});

test("the wallet sheet opens without JavaScript and says what it needs", async ({ page }) => {
  await page.goto("/home");
  await page.getByRole("banner").getByText("Connect Wallet").click();
  await expect(page.getByRole("heading", { name: "Connect a wallet" })).toBeVisible();
  await expect(page.getByText("Connecting a browser wallet needs JavaScript.")).toBeVisible();
  await expect(page.getByRole("button", { name: /WalletConnect/ })).toBeDisabled();
});

test("social icons link out to the configured pages", async ({ page }) => {
  await page.goto("/home");
  const header = page.getByRole("banner");
  for (const label of ["Spark Era on X", "Spark Era blog", "Spark Era chat community", "Spark Era on Telegram"]) {
    await expect(header.getByRole("link", { name: label })).toHaveAttribute("href", /^https:\/\//);
  }
});

test("a long user name is cut short with an ellipsis inside the account button, its icon kept, at any width", async ({
  page,
  createAccount,
  signIn,
}) => {
  const account = await createAccount({ wallet: "none", tag: "a-rather-long-user-name" });
  await signIn(page, account);
  for (const width of [1280, 700]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/home");
    const button = page.getByRole("banner").locator("summary").filter({ hasText: account.email });
    await expect(button).toBeVisible();
    const fit = await button.evaluate((el) => ({
      overflow: el.scrollWidth - el.clientWidth,
      name: getComputedStyle(el.querySelector("span")!).textOverflow,
      icon: el.querySelector("svg")!.getBoundingClientRect().width,
    }));
    expect(fit, `at ${width} px`).toEqual({ overflow: 0, name: "ellipsis", icon: 20 });
  }
});

test("a managed wallet's header shows its address, and its sheet the BNB that pays its gas and how to top it up", async ({
  page,
  createAccount,
  signIn,
}) => {
  const account = await createAccount({ tag: "managed-header", chain: { BNB: 2 } });
  await signIn(page, account);
  await page.goto("/home");
  const banner = page.getByRole("banner");
  const wallet = account.wallet!;
  await expect(banner.getByTestId("wallet-button")).toHaveText(`${wallet.slice(0, 6)}…${wallet.slice(-6)}`);
  await expect(banner.getByText("Connect Wallet")).toHaveCount(0);
  await banner.getByTestId("wallet-button").click();
  await expect(page.getByRole("heading", { name: "Your managed wallet" })).toBeVisible();
  await expect(page.getByTestId("managed-address")).toHaveText(wallet);
  await expect(page.getByTestId("gas-balance")).toHaveText("Gas balance: 2 BNB");
  // The local site runs a gas tank (decision 0038): a wallet without BNB may pay its network fees in tokens.
  await expect(
    page.getByText(/pay gas in BNB when it holds some; otherwise the site pays it, for a small fee in FIRE, QUARK or USDT/),
  ).toBeVisible();
});
