/**
 * Issue 29: a player's public page, /player/{address}, backed by GET /api/user/{walletAddress}: the player's name
 * (the demo player chose none, so the wallet names them), the wallet's items on sale under the market's filter URL
 * rules, its chain items, and nothing private. The demo accounts are only read here.
 */
import { expect, test } from "@playwright/test";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { BUYER, DEMO, logIn } from "../fixtures";

const WALLET = DEMO_BROWSER_ACCOUNT.wallet;
const PAGE = `/player/${WALLET}`;
/** product §2's short form of the wallet: the demo player has no display name. */
const NAME = "0xf39F…b92266";

test("a player's page lists their items on sale and on chain under their public name, and nothing private", async ({ page }) => {
  // Signed in as someone else: what a session may see of its own account must not leak onto another's page.
  await logIn(page, BUYER);
  const response = await page.goto(PAGE);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: NAME })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(WALLET);

  const onSale = page.getByRole("list", { name: "On sale" }).getByRole("listitem");
  await expect(onSale.first()).toBeVisible();
  for (const card of await onSale.all()) await expect(card).not.toContainText("Not for sale");
  const onChain = page.getByRole("list", { name: "On chain" }).getByRole("listitem");
  await expect(onChain.first()).toBeVisible();
  // Seeded on chain for this wallet: its loot boxes and material stacks (a stack names where it is).
  await expect(onChain.filter({ hasText: "Standard Box #1" })).toHaveCount(1);
  await expect(onChain.filter({ hasText: "DarkIron ×30 #8000" })).toContainText("On chain");
  await expect(onChain.filter({ hasText: "In the game" })).toHaveCount(0);

  // Nothing private of the player anywhere on the page (the header is the viewer's own): no email, no kind of
  // wallet, no balances of the game ledger.
  const html = await page.content();
  for (const secret of [DEMO.email, "demo@", "de***@"]) expect(html, secret).not.toContain(secret);
  const main = await page.getByRole("main").innerHTML();
  for (const secret of ["Email", "email", "balance", "Balance", "Managed wallet", "Browser wallet", "BindAddrType"]) {
    expect(main, secret).not.toContain(secret);
  }

  // An item's page names its holder by that name and links back here.
  await onSale.first().getByRole("link").click();
  const holder = page.getByRole("link", { name: NAME, exact: true });
  await expect(holder).toHaveAttribute("href", PAGE);
  await expect(holder).toHaveAttribute("title", WALLET);
  await page.getByRole("link", { name: "← Back to the list" }).click();
  await expect(page).toHaveURL((url) => url.pathname === PAGE);
  await expect(page.getByRole("heading", { level: 1, name: NAME })).toBeVisible();
});

test("a player's page keeps the market's filter URL rules", async ({ page }) => {
  // Lower case and a legacy spelling: one redirect to the canonical page, with what was dropped said in words.
  await page.goto(`/player/${WALLET.toLowerCase()}?faction=1&nftType=0&rarity=9`);
  await expect(page).toHaveURL((url) => url.pathname === PAGE && url.search === "?nftType=0&camp=1");
  await expect(page.getByText("Some filters in this link were not understood")).toBeVisible();
  const filters = page.getByRole("navigation", { name: "Active filters: follow one to remove it" });
  await expect(filters.getByRole("link")).toHaveText(["Type: Hero cards ✕", "Camp: Empire of Amda ✕"]);
  await expect(page.getByRole("navigation", { name: "Item types" }).getByRole("link", { name: "Hero cards" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  for (const card of await page.getByRole("list", { name: "On sale" }).getByRole("listitem").all()) {
    await expect(card).toContainText("Hero cards");
    await expect(card).toContainText("Empire of Amda");
  }

  await page.getByRole("navigation", { name: "Sort by" }).getByRole("link", { name: "Price: low to high" }).click();
  await expect(page).toHaveURL((url) => url.pathname === PAGE && url.search === "?nftType=0&camp=1&sort=price-asc");
  await filters.getByRole("link", { name: "Camp: Empire of Amda ✕" }).click();
  await expect(page).toHaveURL((url) => url.pathname === PAGE && url.search === "?nftType=0&sort=price-asc");
  await page.getByRole("link", { name: "Clear all" }).click();
  await expect(page).toHaveURL((url) => url.pathname === PAGE && url.search === "");
});

test("a wallet no player bound, and a path that names no wallet, are 404 pages in words", async ({ page }) => {
  const cases: [string, string][] = [
    ["/player/0x0000000000000000000000000000000000000001", "No player has bound this wallet to an account."],
    [`/player/${WALLET.replace("f39Fd6e5", "F39fd6e5")}`, "This link does not name a wallet"],
    ["/player/alice", "This link does not name a wallet"],
  ];
  for (const [path, words] of cases) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Player not found" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(words);
  }
});
