/**
 * Issue 17, lite mode: with JavaScript enabled in the browser, the menu's switch turns pages into script-free ones, and
 * a whole journey (browse, filter, log in, favorite, a managed-wallet listing, opening a loot box on chain and following its
 * status page, a calculator, the loyalty pages) then downloads no script at all and renders no script or modulepreload tag. The notice turns it off again.
 * A browser that sends Save-Data: on gets lite pages without asking.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { waitForOutcome } from "../managed-chain";

/** Every JavaScript request the page makes from now on. */
function countScripts(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script" || /\.m?js(\?|$)/.test(request.url())) urls.push(request.url());
  });
  return urls;
}

/** No script that runs: an item page's JSON-LD block (issue 42) is data, never run nor fetched. */
async function expectNoScriptTags(page: Page) {
  expect(await page.locator('script:not([type="application/ld+json"]), link[rel=modulepreload]').count()).toBe(0);
}

test("lite mode: a whole journey with no script, then back to the full site", async ({ page, createAccount }) => {
  test.setTimeout(90_000);
  const account = await createAccount({ tag: "lite", chain: { BNB: 1, boxes: { 4: 1 } } });
  const [item] = account.items;

  await page.goto("/home");
  expect(await page.locator("script").count()).toBeGreaterThan(0);
  await page.getByLabel("Menu", { exact: true }).click();
  await page.getByRole("button", { name: "Lite mode" }).click();
  await expect(page.getByTestId("lite-notice")).toContainText("Lite mode: pages load no JavaScript.");
  await expectNoScriptTags(page);

  const scripts = countScripts(page);
  await page.goto("/marketplace/market");
  await page.getByRole("navigation", { name: "Item types" }).getByRole("link", { name: "Spaceships" }).click();
  await expect(page).toHaveURL(/nftType=4/);
  await expectNoScriptTags(page);

  // Log in through the form, and favorite an item.
  await page.goto(`/login?redirect=${encodeURIComponent(item!.url)}`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(item!.url);
  await page.getByRole("button", { name: "Add to favorites" }).click();
  await expect(page.getByRole("button", { name: "Remove from favorites" })).toBeVisible();

  // A managed wallet lists its item, signed by the backend.
  await page.getByLabel("Price").fill("7");
  await page.getByLabel("Currency").selectOption("FIRE");
  await page.getByRole("button", { name: "List for sale" }).click();
  await expect(page.getByTestId("trade-status")).toHaveText("On sale for 7 FIRE");
  await expectNoScriptTags(page);

  // An on-chain action of the managed wallet: its status page refreshes itself with a plain meta refresh.
  await page.goto("/lootbox/4");
  await page.getByRole("button", { name: "Open all 1" }).click();
  await waitForOutcome(page);
  await expectNoScriptTags(page);

  await page.goto("/spaceship/calculator?hours=2");
  await expect(page.getByTestId("calc-power")).toBeVisible();
  for (const path of ["/loyalty", "/lootbox/4", "/game", "/marketplace/storage"]) {
    await page.goto(path);
    await expect(page.getByTestId("lite-notice")).toBeVisible();
    await expectNoScriptTags(page);
  }
  expect(scripts).toEqual([]);

  await page.getByRole("button", { name: "Turn lite mode off" }).click();
  await expect(page.getByTestId("lite-notice")).toHaveCount(0);
  // Waited for: the page streams in, and its scripts come after the header that no longer has the notice.
  await expect(page.locator("script")).not.toHaveCount(0);
  await expect.poll(() => scripts.length).toBeGreaterThan(0);
});

test("a browser that asks to save data gets lite pages, and the switch still wins", async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { "Save-Data": "on" } });
  const page = await context.newPage();
  const scripts = countScripts(page);
  await page.goto("/marketplace");
  await expect(page.getByTestId("lite-notice")).toContainText("as your browser asks to save data");
  await expectNoScriptTags(page);
  expect(scripts).toEqual([]);
  await page.getByRole("button", { name: "Turn lite mode off" }).click();
  await expect(page.getByTestId("lite-notice")).toHaveCount(0);
  // Waited for: the page streams in, and its scripts come after the header that no longer has the notice.
  await expect(page.locator("script")).not.toHaveCount(0);
  await context.close();
});
