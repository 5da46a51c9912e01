import { expect, test } from "../accounts";
import { DEMO } from "../fixtures";

const NEEDS_WALLET = /need a browser wallet \(MetaMask or OKX Wallet\) bound to your account, and JavaScript/;

test("/lootbox/18 renders the V3-Galaxy box with its chain price, limits and what buying needs", async ({ page }) => {
  const response = await page.goto("/lootbox/18");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "V3-Galaxy loot box" })).toBeVisible();
  const prices = page.getByRole("list", { name: "Prices" });
  // Payable only in QUARK: the sale contract has no other price for it.
  await expect(prices.getByRole("listitem")).toHaveText(["100 QUARK"]);
  await expect(page.getByText("At most 2 per player per 24 hours.")).toBeVisible();
  await expect(page.getByText("Payable only in QUARK.")).toBeVisible();
  await expect(page.getByText(/[\d,]+ of 5,000 left/)).toBeVisible();
  await expect(page.getByText(NEEDS_WALLET)).toBeVisible();
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
});

test("/game lists every box of the catalogue with its prices and says buying needs a wallet", async ({ page }) => {
  await page.goto("/game");
  await expect(page.getByRole("heading", { level: 1, name: "Spark Era, the game" })).toBeVisible();
  const section = page.locator("#lootboxes-title").locator("..");
  await expect(section.getByText(NEEDS_WALLET)).toBeVisible();
  for (const [typeBox, title, price] of [
    [18, "V3-Galaxy loot box", "100 QUARK"],
    [5, "Premium loot box", "30 USDT"],
    [7, "Legendary loot box", "0.5 BNB"],
    [6, "Epic loot box", "60 QUARK"],
    [4, "Standard loot box", "0.03 BNB"],
    [17, "Spaceship loot box", "200 USDT"],
  ] as const) {
    const card = page.getByTestId(`box-${typeBox}`);
    await expect(card.getByRole("heading", { name: title })).toBeVisible();
    await expect(card.getByRole("list", { name: "Prices" })).toContainText(price);
    await expect(card.getByRole("link", { name: `Buy or open: ${title}` })).toHaveAttribute("href", `/lootbox/${typeBox}`);
  }
});

test("/home shows the loot boxes with their headline prices", async ({ page }) => {
  await page.goto("/home");
  await expect(page.getByTestId("box-18")).toContainText("V3-Galaxy loot box");
  await expect(page.getByTestId("box-18")).toContainText("100 QUARK");
  await expect(page.getByTestId("box-4")).toContainText("10 USDT");
});

test("a signed-in user with a bound wallet sees its balances and boxes without JavaScript", async ({ page, signIn }) => {
  // The demo account's seeded wallet and boxes, only read.
  await signIn(page, DEMO);
  await page.goto("/lootbox/4");
  const mine = page.locator("#your-boxes-title").locator("..");
  await expect(mine).toContainText("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  await expect(mine.getByRole("list", { name: "Balances" })).toContainText("BNB");
  await expect(mine.getByRole("list", { name: "Your unopened boxes" })).toContainText("V3-Galaxy loot box");
  await expect(page.getByText(NEEDS_WALLET)).toBeVisible();

  await page.goto("/game");
  await expect(page.getByTestId("box-18")).toContainText(/You own \d+ box/);
  await expect(page.getByTestId("allowance-18")).toBeVisible();
});

test("a wallet's balances read rounded down to 4 decimals, the exact amount in their title", async ({ page, createAccount, signIn }) => {
  const account = await createAccount({ chain: { BNB: 9999.999535374991 } });
  await signIn(page, account);
  await page.goto("/lootbox/18");
  const bnb = page.getByRole("list", { name: "Balances" }).getByText(/BNB$/);
  await expect(bnb).toHaveText("9,999.9995 BNB");
  await expect(bnb).toHaveAttribute("title", "Exactly 9,999.999535374991 BNB");
});

for (const path of ["/lootbox/abc", "/lootbox/999", "/lootbox/8", "/lootbox/4x"]) {
  test(`${path} is a 404 page`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "We can’t find this page" })).toBeVisible();
  });
}
