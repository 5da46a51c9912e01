import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { accountButton, DEMO, readCodeFromOutbox, uniqueEmail } from "../fixtures";

/** Hero cards by camp, rarity, level and currency, sorted by price, cheapest first. */
const DEEP_LINK = "/marketplace/market?nftType=0&camp=0,1,2&rarity=0,1&level=1,8&currency=FIRE&sort=price-asc";
const CAMP_NAMES = ["Asman Zerg", "Empire of Amda", "Confederation of Earth"];

function cards(page: Page) {
  return page.getByRole("list", { name: "Items on sale" }).getByRole("article");
}

/** A card's attribute by its label, as the card shows it (names, never codes). */
async function attribute(card: Locator, label: string) {
  return card
    .locator("dt", { hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]")
    .innerText();
}

/** "1,234.5 FIRE" → 1234.5 (only to compare order in a test). */
async function price(card: Locator) {
  const match = /([\d,.]+) FIRE/.exec(await card.innerText());
  expect(match, "a FIRE price on the card").not.toBeNull();
  return Number(match![1].replace(/,/g, ""));
}

async function expectMatching(page: Page, camps: string[]) {
  const all = await cards(page).all();
  expect(all.length).toBeGreaterThan(0);
  let previous = 0;
  for (const card of all) {
    await expect(card.getByText("Hero cards")).toBeVisible();
    expect(camps).toContain(await attribute(card, "Camp"));
    await expect(card.getByText(/Rarity: (Common|Rare)$/)).toHaveCount(1);
    const level = Number(await attribute(card, "Level"));
    expect(level).toBeGreaterThanOrEqual(1);
    expect(level).toBeLessThanOrEqual(8);
    const current = await price(card);
    expect(current).toBeGreaterThanOrEqual(previous);
    previous = current;
  }
}

test("a deep link filters, a changed filter applies, pages go forward, and a detail comes back to the same view", async ({ page }) => {
  await page.goto(DEEP_LINK);
  await expect(page.getByRole("heading", { level: 1, name: "Market" })).toBeVisible();
  // Already canonical: no redirect, no notice.
  await expect(page).toHaveURL(DEEP_LINK);
  await expect(page.getByText("were not understood")).toHaveCount(0);
  await expectMatching(page, CAMP_NAMES);
  await expect(page.getByRole("link", { name: "Remove filter Camp: Asman Zerg" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Remove filter Level 1–8" })).toBeVisible();

  // Change a filter in the form and apply it: the form's GET lands on the canonical URL.
  const form = page.getByRole("form", { name: "Filters" });
  await expect(form.getByRole("combobox", { name: "Sort by" })).toHaveValue("price-asc");
  await form.getByRole("group", { name: "Camp" }).getByLabel("Confederation of Earth").uncheck();
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL("/marketplace/market?nftType=0&camp=0,1&rarity=0,1&level=1,8&currency=FIRE&sort=price-asc");
  await expectMatching(page, CAMP_NAMES.slice(0, 2));
  await expect(page.getByRole("link", { name: "Remove filter Camp: Confederation of Earth" })).toHaveCount(0);
  await expect(page.getByText(/Showing 1–10 of \d+ items/)).toBeVisible();
  const firstPage = await cards(page).first().innerText();

  // Page forward.
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/&sort=price-asc&page=2$/);
  await expect(page.getByText(/Showing 11–\d+ of \d+ items/)).toBeVisible();
  await expectMatching(page, CAMP_NAMES.slice(0, 2));
  expect(await cards(page).first().innerText()).not.toBe(firstPage);
  const listUrl = page.url();

  // Open a detail and come back with every filter kept.
  const card = cards(page).first();
  const name = await card.getByRole("heading").innerText();
  await card.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/marketplace\/detail\?nftType=0&tokenId=\d+&back=/);
  await expect(page.getByRole("heading", { level: 1, name: "Item detail" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  await expect(page.getByTestId("trade-status")).toHaveText(/^On sale for [\d,.]+ FIRE$/);
  await page.getByRole("link", { name: "← Back to the list" }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(page.getByText(/Showing 11–\d+ of \d+ items/)).toBeVisible();
});

test("price sort lists one currency after another, never comparing tokens, and says so by the sort control", async ({ page }) => {
  await page.goto("/marketplace/market?sort=price-asc&pageSize=100");
  await expect(page.getByLabel("Sort by")).toHaveAccessibleDescription(
    /^Price order never compares different tokens: BNB listings come first/,
  );
  const currencies = (await cards(page).allInnerTexts()).map((text) => /[\d,.]+ (BNB|FIRE|QUARK|USDT)\b/.exec(text)?.[1]);
  expect(currencies.every(Boolean)).toBe(true);
  expect(new Set(currencies).size).toBeGreaterThan(1);
  expect(currencies).toEqual([...currencies].sort());
});

test("the garbage URL renders with defaults and a notice", async ({ page }) => {
  const response = await page.goto("/marketplace/market?camp=zz&level=9,1&page=-3");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL("/marketplace/market?level=1,9");
  await expect(page.getByRole("heading", { level: 1, name: "Market" })).toBeVisible();
  const notice = page.getByRole("status").filter({ hasText: "were not understood" });
  await expect(notice).toContainText("Camp: “zz” is not a known camp value");
  await expect(notice).toContainText("Page: “-3” is not a page number");
  await expect(page.getByText(/Showing 1–10 of/)).toBeVisible();
  // The notice was for that one redirect: reloading the canonical URL shows none.
  await page.reload();
  await expect(page.getByText("were not understood")).toHaveCount(0);
});

test("a filter chip removes just its value, and switching type keeps what still applies", async ({ page }) => {
  await page.goto("/marketplace/market?nftType=4&camp=1&rank=3,4&sort=total-desc");
  await page.getByRole("link", { name: "Remove filter Spaceship type: Legend" }).click();
  await expect(page).toHaveURL("/marketplace/market?nftType=4&camp=1&rank=3&sort=total-desc");
  for (const card of await cards(page).all()) await expect(card.getByText("Spaceship type: Epic")).toHaveCount(1);
  await page.getByRole("navigation", { name: "Item types" }).getByRole("link", { name: "Hero cards" }).click();
  await expect(page).toHaveURL("/marketplace/market?nftType=0&camp=1");
  await expect(page.getByRole("group", { name: "Identity" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Spaceship type" })).toHaveCount(0);
});

test("favorite and unfavorite without JavaScript", async ({ page, createAccount }) => {
  const account = await createAccount({ stock: {} });
  // A visitor is sent to log in and comes back to the item.
  await page.goto("/marketplace/market?nftType=5");
  await cards(page).first().getByRole("link").click();
  const detailUrl = page.url();
  await page.getByRole("button", { name: "Add to favorites" }).click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(detailUrl);

  const count = async () => Number((await page.getByText(/^\d+ favorites?$/).innerText()).split(" ")[0]);
  const before = await count();
  await page.getByRole("button", { name: "Add to favorites" }).click();
  await expect(page).toHaveURL(detailUrl);
  await expect(page.getByRole("button", { name: "Remove from favorites" })).toBeVisible();
  expect(await count()).toBe(before + 1);

  await page.getByRole("button", { name: "Remove from favorites" }).click();
  await expect(page).toHaveURL(detailUrl);
  await expect(page.getByRole("button", { name: "Add to favorites" })).toBeVisible();
  expect(await count()).toBe(before);
});

test("storage: a visitor is asked to log in; the owner sees tabs with names, not codes", async ({ page, signIn }) => {
  await page.goto("/marketplace/storage?tab=selling");
  await expect(page.getByRole("link", { name: "Log in" })).toHaveAttribute(
    "href",
    "/login?redirect=%2Fmarketplace%2Fstorage%3Ftab%3Dselling",
  );

  // The demo account's items, only read.
  await signIn(page, DEMO);
  await page.goto("/marketplace/storage?nftType=0");
  const tabs = page.getByRole("navigation", { name: "Storage tabs" });
  await expect(tabs.getByRole("link", { name: "My items" })).toHaveAttribute("aria-current", "page");
  const items = page.getByRole("list", { name: "My items" }).getByRole("article");
  await expect(items.first()).toBeVisible();
  for (const card of await items.all()) {
    expect(await attribute(card, "Camp")).toMatch(/^(Asman Zerg|Empire of Amda|Confederation of Earth|Eternal Protoss)$/);
    await expect(card.getByText(/^Rarity: (Common|Rare|Epic|Legend)$/)).toHaveCount(1);
  }
  await tabs.getByRole("link", { name: "Selling" }).click();
  await expect(page).toHaveURL("/marketplace/storage?tab=selling&nftType=0");
  for (const card of await page.getByRole("list", { name: "Selling" }).getByRole("article").all()) {
    await expect(card.getByText(/\d FIRE|QUARK|USDT|BNB/)).toBeVisible();
  }
  await tabs.getByRole("link", { name: "Favorites" }).click();
  await expect(page).toHaveURL("/marketplace/storage?tab=favorites&nftType=0");
  await expect(page.getByRole("heading", { level: 2, name: "Favorites" })).toBeVisible();
});

test("statistics: filters as links and a GET form, a server-rendered chart with its table", async ({ page }) => {
  await page.goto("/marketplace/statistics");
  const chart = page.getByRole("img", { name: /Daily sales volume in FIRE, last 30 days/ });
  await expect(chart).toBeVisible();
  await page.getByText("Show the figures as a table").click();
  await expect(page.getByRole("table", { name: "Daily sales volume in FIRE" }).getByRole("row")).toHaveCount(31);

  await page.getByRole("navigation", { name: "Statistics by type" }).getByRole("link", { name: "Spaceships" }).click();
  await expect(page).toHaveURL("/marketplace/statistics?nftType=4");
  const form = page.getByRole("form", { name: "Statistics filters" });
  await form.getByLabel("Level").selectOption("1");
  await form.getByLabel("Period").selectOption("all");
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL("/marketplace/statistics?nftType=4&level=1&period=all");
  await expect(form.getByLabel("Level")).toHaveValue("1");
  const rows = page.getByRole("table", { name: "Recent sales" }).getByRole("row");
  await expect(rows.nth(1)).toContainText("Spaceships");

  await page.goto("/marketplace/statistics?egse=9&level=10");
  await expect(page).toHaveURL("/marketplace/statistics");
  await expect(page.getByRole("status").filter({ hasText: "were not understood" })).toContainText("Level: “10”");
});

test("the landing page links every type to its canonical market view", async ({ page }) => {
  await page.goto("/marketplace");
  await expect(page.getByRole("link", { name: "Spaceships", exact: true })).toHaveAttribute("href", "/marketplace/market?nftType=4");
  await expect(page.getByRole("table", { name: "Latest sales" }).getByRole("row")).toHaveCount(9);
  await page.getByRole("link", { name: "Loot boxes", exact: true }).click();
  await expect(page).toHaveURL("/marketplace/market?nftType=6");
  for (const card of await cards(page).all()) await expect(card.getByText(/^Rank: (Common|Uncommon|Legendary)$/)).toHaveCount(1);
});

test("a missing item is a 404 inside the marketplace, a malformed link a 400", async ({ page }) => {
  expect((await page.goto("/marketplace/detail?nftType=4&tokenId=987654321"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Item not found" })).toBeVisible();
  expect((await page.goto("/marketplace/detail?nftType=x&tokenId=1"))?.status()).toBe(400);
  await expect(page.getByText("nftType must be a type code from 0 to 8")).toBeVisible();
});

test("an account without a wallet is asked to bind one, in storage and when it favorites", async ({ page }) => {
  const email = uniqueEmail("nowallet");
  await page.goto("/login?act=reg&redirect=%2Fmarketplace%2Fstorage");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByLabel("Verification code").fill(await readCodeFromOutbox(page, email));
  await page.getByLabel("Password").fill("New-pass-7");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(accountButton(page, email)).toBeVisible();
  await expect(page).toHaveURL("/marketplace/storage");
  await expect(page.getByText("Please bind a wallet address to see your items")).toBeVisible();
  await expect(page.getByRole("link", { name: "Bind now" })).toHaveAttribute(
    "href",
    "/login?act=connect&redirect=%2Fmarketplace%2Fstorage",
  );

  await page.goto("/marketplace/market?nftType=6");
  await cards(page).first().getByRole("link").click();
  const detailUrl = page.url();
  await page.getByRole("button", { name: "Add to favorites" }).click();
  await expect(page).toHaveURL(detailUrl);
  const dialog = page.getByRole("alertdialog", { name: "Tips" });
  await expect(dialog).toContainText("Please bind a wallet address");
  await expect(dialog.getByRole("link", { name: "Bind now" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add to favorites" })).toBeVisible();
});
