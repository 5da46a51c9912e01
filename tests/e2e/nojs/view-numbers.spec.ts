/**
 * Issue 30 parts 2 and 3 without JavaScript: the numbers at the top of a market view, and the price history of a view
 * and of an item, with its period as a link.
 */
import type { Page } from "@playwright/test";
import type { ListingRecord, Page as ListingPage } from "~core/api/market";
import { CURRENCIES, formatPrice } from "~core/money";
import { expect, test } from "../accounts";
import { listForSale } from "../fixtures";

/** The values (and note) of one of the numbers at the top of the view. */
function stat(page: Page, label: string) {
  return page
    .getByRole("region", { name: "The numbers of this view" })
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd");
}

test("the numbers at the top of a view equal a direct computation over the view's listings", async ({ page, request }) => {
  // Other workers list, buy and cancel hero cards meanwhile: a write between the API read and the page load is not
  // a wrong number, so the whole comparison is tried again until it holds at one quiet moment.
  await expect(async () => {
    const view = "nftType=0";
    // Every listing of the view, read through the market API.
    const listings: ListingRecord[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const answer = await request.get(`/api/v1/marketplace/tradingMarket?${view}&pageSize=100&pageNumber=${pageNumber}`);
      const { data } = (await answer.json()) as { data: ListingPage<ListingRecord> };
      listings.push(...data.records);
      if (data.records.length < 100) break;
    }
    expect(listings.length).toBeGreaterThan(1);
    const floors = CURRENCIES.flatMap((currency) => {
      const prices = listings.filter((l) => l.currency === currency).map((l) => BigInt(l.price!));
      return prices.length
        ? [
            formatPrice(
              prices.reduce((a, b) => (a < b ? a : b)),
              currency,
            ),
          ]
        : [];
    });

    await page.goto(`/marketplace/market?${view}`);
    await expect(stat(page, "Floor")).toHaveText(floors, { timeout: 1_000 });
    await expect(stat(page, "Listed")).toHaveText([listings.length.toLocaleString("en")], { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
});

test("a sale moves the view's volume and last sale; the view and the item page chart it, and the period is a link", async ({
  page,
  browser,
  createAccount,
  signIn,
  signedInPage,
}) => {
  test.setTimeout(120_000);
  const [sellerAccount, buyerAccount] = await Promise.all([
    createAccount({ tag: "numbers-seller" }),
    createAccount({ tag: "numbers-buyer", stock: { balances: { FIRE: 100 } } }),
  ]);
  const [item] = sellerAccount.items;
  // A view only this listing is in: its type, currency and an odd price.
  const view = `/marketplace/market?nftType=${item.nftType}&currency=FIRE&price=3.14159`;
  await signIn(page, sellerAccount);
  await page.goto(item.url);
  await listForSale(page, "3.14159");

  const visitor = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await visitor.goto(view);
  await expect(stat(visitor, "Floor")).toHaveText(["3.14159 FIRE"]);
  await expect(stat(visitor, "Listed")).toHaveText(["1"]);
  await expect(stat(visitor, "24 h volume")).toHaveText(["—", "0 sales"]);
  await expect(stat(visitor, "Last sale")).toHaveText(["—"]);

  const buyer = await signedInPage(buyerAccount);
  await buyer.goto(item.url);
  await buyer.getByRole("button", { name: "Buy" }).click();
  await buyer.getByRole("button", { name: "Confirm purchase" }).click();
  await expect(buyer.getByText("Purchase complete.")).toBeVisible();

  await visitor.goto(view);
  await expect(stat(visitor, "Floor")).toHaveText(["—"]);
  await expect(stat(visitor, "Listed")).toHaveText(["0"]);
  await expect(stat(visitor, "24 h volume")).toHaveText(["3.14159 FIRE", "1 sale"]);
  await expect(stat(visitor, "7 d volume")).toHaveText(["3.14159 FIRE", "1 sale"]);
  await expect(stat(visitor, "Last sale").first()).toHaveText("3.14159 FIRE");
  await expect(stat(visitor, "Last sale").last()).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);

  // The view's history: folded until a period is chosen; the chart and its table, one row for today.
  const today = new Date().toISOString().slice(0, 10);
  const history = visitor.locator("details", { hasText: "Price history" });
  await expect(history.locator("summary .section-title")).toHaveText("Price history · 30 days");
  await history.locator("summary").click();
  await expect(history.locator("svg path").first()).toHaveAttribute("d", /^M[\d.]+ [\d.]+V[\d.]+$/);
  await expect(history.getByRole("row").nth(1)).toHaveText([today, "1", "3.14159 FIRE", "3.14159 FIRE"].join(""));
  await history.getByRole("link", { name: "7 days" }).click();
  await expect(visitor).toHaveURL(/[?&]period=7d(&|$)/);
  await expect(history).toHaveAttribute("open", "");
  await expect(history.locator("summary .section-title")).toHaveText("Price history · 7 days");
  await expect(history.getByRole("link", { name: "7 days" })).toHaveAttribute("aria-current", "page");
  await expect(history.getByRole("row").nth(1)).toContainText(today);

  // The item page charts the item's own sales; its period link keeps the page's other parameters.
  await visitor.goto(item.url);
  const own = visitor.locator("details", { hasText: "Price history" });
  await own.locator("summary").click();
  await expect(own.getByRole("figure")).toHaveCount(1);
  await expect(own.getByRole("figure")).toContainText("FIRE: 1 sale, from 3.14159 FIRE to 3.14159 FIRE.");
  await own.getByRole("link", { name: "All time" }).click();
  await expect(visitor).toHaveURL(new RegExp(`tokenId=${item.tokenId}.*period=all`));
  await expect(own.locator("summary .section-title")).toHaveText("Price history · all time");
  await expect(own.getByRole("row").nth(1)).toContainText(today);
});

test("a period the market does not know is dropped from the view's URL with a notice", async ({ page }) => {
  await page.goto("/marketplace/market?nftType=0&period=1y");
  await expect(page).toHaveURL(/\/marketplace\/market\?nftType=0$/);
  await expect(page.getByText("Period: “1y” is not 30d, 7d, 90d, all, so the price history shows the last 30 days.")).toBeVisible();
});

test("applying filters keeps the price history's period", async ({ page }) => {
  await page.goto("/marketplace/market?nftType=0&period=7d");
  await page.getByRole("form", { name: "Filters" }).getByLabel("Per page").selectOption("20");
  await page.getByRole("form", { name: "Filters" }).getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/[?&]pageSize=20(&|$)/);
  await expect(page).toHaveURL(/[?&]period=7d(&|$)/);
  await expect(page.locator("details", { hasText: "Price history" }).locator("summary .section-title")).toHaveText(
    "Price history · 7 days",
  );
});
