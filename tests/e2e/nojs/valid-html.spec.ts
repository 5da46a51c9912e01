/**
 * Issue 42: every page a visitor and a signed-in player open is valid HTML by the W3C Nu checker. The pages are found
 * as a person finds them, by following the links of the pages before (two of each kind of address), from the routes
 * of product §2.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_BROWSER_ACCOUNT, DEMO_MANAGED_ACCOUNT } from "~core/demo";
import { DEMO, logIn, MANAGED } from "../fixtures";
import { nuErrors } from "../nu";
import { ROUTES } from "../routes";

const PAGES_PER_VISIT = 90;
/** Addresses that are no page: assets, feeds, and links that change the session. */
const NOT_A_PAGE = /^\/(build|resources|nft|og|api|sso|logout|dev\/|metrics|healthz)|\.(png|svg|json|xml|txt|ico|js|css)(\?|$)/;

/** The kind of address: its path with numbers and addresses made alike, and its query's names. */
function kindOf(href: string): string {
  const url = new URL(href, "http://x");
  const names = [...new Set(url.searchParams.keys())].sort().join("&");
  return `${url.pathname.replace(/0x[0-9a-fA-F]{40}/g, "A").replace(/\d+/g, "N")}?${names}`;
}

async function visit(page: Page, extra: string[]) {
  const queue = [...ROUTES.map((route) => route.path), ...extra];
  const kinds = new Map<string, number>();
  const seen = new Set<string>();
  const pages: { path: string; html: string }[] = [];
  while (queue.length && pages.length < PAGES_PER_VISIT) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const response = await page.request.get(path);
    if (!response.headers()["content-type"]?.startsWith("text/html")) continue;
    const html = await response.text();
    // What React streams after </html> (Remix's data for hydration, in a script) is no part of the document checked.
    const end = html.lastIndexOf("</html>") + "</html>".length;
    expect(html.slice(end), path).toMatch(
      /^(<!--\/?\$-->|<script( nonce="[0-9a-f]+")?>[^<]*<\/script>|<div hidden="" id="S:\d+">|<\/div>)*$/,
    );
    pages.push({ path, html: html.slice(0, end) });
    for (const [, raw] of html.matchAll(/<a [^>]*href="(\/[^"#]*)"/g)) {
      const href = raw!.replaceAll("&amp;", "&");
      const kind = kindOf(href);
      if (NOT_A_PAGE.test(href) || seen.has(href) || (kinds.get(kind) ?? 0) >= 2) continue;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      queue.push(href);
    }
  }
  return pages;
}

/** Nu's errors, as lines a person can read: the page, the message, the markup it is about. */
async function problems(pages: { path: string; html: string }[]) {
  return (await nuErrors(pages)).map((error) => `${error.page}: ${error.message} ${JSON.stringify(error.extract ?? "")}`);
}

test("every page a visitor opens is valid HTML", async ({ page }) => {
  test.setTimeout(180_000);
  const pages = await visit(page, ["/login", "/register", "/forgot-password", "/marketplace/market?nftType=0&camp=0&rarity=1"]);
  expect(pages.length).toBeGreaterThan(40);
  expect(await problems(pages)).toEqual([]);
});

for (const [wallet, account] of [
  ["a browser", DEMO],
  ["a managed", MANAGED],
] as const)
  test(`every page a signed-in player with ${wallet} wallet opens is valid HTML`, async ({ page }) => {
    test.setTimeout(180_000);
    await logIn(page, account);
    // Issue 42: the player's own page, with the display name form.
    const own = `/player/${account === DEMO ? DEMO_BROWSER_ACCOUNT.wallet : DEMO_MANAGED_ACCOUNT.wallet}`;
    const pages = await visit(page, ["/marketplace/market?nftType=0&page=2", "/marketplace/statistics?nftType=0&page=2", own]);
    expect(pages.length).toBeGreaterThan(40);
    expect(await problems(pages)).toEqual([]);
  });
