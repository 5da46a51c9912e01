/**
 * Every visitor page a shared cache may keep (decision 0033's table, server/visitor-pages.ts): public with a strong
 * ETag of its coding, a 304 to it, no nonce and its scripts' hashes in its CSP; the same URL signed in is private with
 * a nonce; a market change changes an item page's ETag. And Chromium runs a cached item page under its hashes alone:
 * hydrated, navigating on the client, not one CSP violation.
 */
import type { APIRequestContext, APIResponse, Response } from "@playwright/test";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { expect, test } from "../accounts";
import { watchCsp } from "./csp-watch";

const PUBLIC = /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/;
/** The generation (a number, `b<block>`, or `<market>.b<block>.i<indexed>`), a digest, the coding. */
const STRONG_ETAG = /^"(\d+|b\d+|\d+\.b\d+\.i\d+)-[\w-]{22}(-br|-gzip)?"$/;

/** The first link of `prefix` in a page's HTML, its entities undone. */
function firstLink(html: string, prefix: string): string {
  const href = new RegExp(`href="(${prefix.replace(/[?/.]/g, "\\$&")}[^"]*)"`).exec(html)?.[1];
  expect(href, `a link to ${prefix}`).toBeTruthy();
  return href!.replaceAll("&amp;", "&");
}

/** The public pages to check: the fixed ones, an item found on the market, the demo player's page. */
async function publicPages(request: APIRequestContext): Promise<string[]> {
  const market = await (await request.get("/marketplace/market?sort=listed-asc")).text();
  const item = firstLink(market, "/marketplace/detail?");
  return [
    "/marketplace",
    "/marketplace/statistics",
    item,
    `/player/${DEMO_BROWSER_ACCOUNT.wallet}`,
    "/home",
    "/lootbox/5",
    "/loyalty",
    "/loyalty/page/1",
    "/loyalty/rewards/1",
    "/spaceship/calculator",
  ];
}

function expectShared(path: string, response: APIResponse | Response, html: string) {
  const headers = response.headers();
  expect(response.status(), path).toBe(200);
  expect(headers["cache-control"], path).toMatch(PUBLIC);
  expect(headers["etag"], path).toMatch(STRONG_ETAG);
  expect(headers["vary"], path).toContain("Accept-Encoding");
  const policy = headers["content-security-policy"]!;
  expect(policy, path).toMatch(/script-src 'strict-dynamic' 'self'( 'sha256-[\w+/]+=*')+;/);
  expect(policy, path).not.toContain("nonce-");
  expect(html, path).not.toMatch(/\snonce=/);
}

test("each public page a visitor opens is one any cache may keep: public, a strong ETag and its 304, hashes and no nonce", async ({
  request,
}) => {
  for (const path of await publicPages(request)) {
    const response = await request.get(path);
    expectShared(path, response, await response.text());
    // The representation a browser holds (its coding's tag): not modified.
    const etag = response.headers()["etag"]!;
    const again = await request.get(path, { headers: { "If-None-Match": etag } });
    // A page whose generation moved in between (an item page's first view of the day moves the market's) is a 200.
    if (again.status() === 200) {
      const next = again.headers()["etag"]!;
      expect(next, path).not.toBe(etag);
      expect((await request.get(path, { headers: { "If-None-Match": next } })).status(), path).toBe(304);
    } else {
      expect(again.status(), path).toBe(304);
      expect(await again.body(), path).toHaveLength(0);
      expect(again.headers()["etag"], path).toBe(etag);
    }
  }
});

test("the same pages signed in are private, with a nonce; a market change moves an item page's ETag", async ({
  page,
  request,
  createAccount,
  signIn,
}) => {
  const paths = await publicPages(request);
  const account = await createAccount();
  await signIn(page, account);
  // An item page: the visitor's copy stands still (its first view of the day counted)...
  const item = paths[2]!;
  const etagNow = async () => (await request.get(item)).headers()["etag"]!;
  let before = await etagNow();
  for (let stable = await etagNow(); stable !== before; stable = await etagNow()) before = stable;
  // ...until the market moves: a new player's first view of it counts, and the page shows one more view.
  await page.request.get(item);
  const after = await etagNow();
  expect(after).not.toBe(before);
  expect(after.split("-")[0]).not.toBe(before.split("-")[0]);
  expect((await request.get(item, { headers: { "If-None-Match": before } })).status()).toBe(200);

  for (const path of paths) {
    const response = await page.request.get(path);
    const headers = response.headers();
    expect(response.status(), path).toBe(200);
    expect(headers["cache-control"], path).toMatch(/^(private, no-cache|no-store)$/);
    expect(headers["etag"], path).toBeUndefined();
    const nonce = /'nonce-([0-9a-f]+)'/.exec(headers["content-security-policy"]!)?.[1];
    expect(nonce, path).toMatch(/^[0-9a-f]{32}$/);
    expect(await response.text(), path).toContain(`nonce="${nonce}"`);
  }
});

test("a visitor's item page runs under its hashes alone: hydrated, its islands, client navigation, no CSP violation", async ({
  page,
  request,
}) => {
  const market = await (await request.get("/marketplace/market?sort=listed-asc")).text();
  const item = firstLink(market, "/marketplace/detail?");
  const csp = await watchCsp(page);

  const response = await page.goto(item);
  expectShared(item, response!, await response!.text());

  await page.waitForFunction(() => {
    const main = document.getElementById("main");
    return main && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
  });
  expect(await page.evaluate(() => document.documentElement.classList.contains("js"))).toBe(true);
  // The header's menu is an island: it takes focus, and closes on Escape (its script, run under the hashes).
  const summary = page.getByLabel("Menu", { exact: true });
  await summary.click();
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await expect(menu.getByRole("link", { name: "Game", exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  // The favorite toggle is an island: its fetcher posts, and a visitor is told to log in (or taken there).
  await page.getByRole("button", { name: "Add to favorites" }).click();
  await expect(
    page
      .getByRole("alert")
      .or(page.getByRole("heading", { name: /log in/i }))
      .first(),
  ).toBeVisible();
  if (!new URL(page.url()).pathname.startsWith("/login")) {
    // The back link is followed on the client (the document is not loaded again), to another cached page.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByRole("link", { name: "← Back to the list" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/marketplace/market");
    await expect(page.locator('main a[href^="/marketplace/detail?"]').first()).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  }

  await csp.expectNone();
});
