/**
 * A visitor's market page is one any cache may copy (decision 0033): no nonce, its inline scripts allowed by their
 * hashes with 'strict-dynamic'. Chromium must still run it: the inline scripts, the modules they import, and the
 * lazy chunks after, with not one CSP violation; and a signed-in page keeps its nonce.
 */
import { expect, test } from "../accounts";
import { watchCsp } from "./csp-watch";

const MARKET = "/marketplace/market";

test("a visitor's market page runs under its hashes alone: hydrated, navigating on the client, no CSP violation", async ({ page }) => {
  const csp = await watchCsp(page);

  const response = await page.goto(MARKET);
  const headers = response!.headers();
  expect(headers["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
  expect(headers["etag"]).toMatch(/^"\d+-[\w-]{22}(-br|-gzip)?"$/);
  const policy = headers["content-security-policy"]!;
  expect(policy).toMatch(/script-src 'strict-dynamic' 'self'( 'sha256-[\w+/]+=*')+;/);
  expect(policy).not.toContain("nonce-");
  const html = await response!.text();
  expect(html).not.toMatch(/\snonce=/);

  // Hydrated: React's fiber on the main landmark, the head script's class, Remix's router.
  await page.waitForFunction(() => {
    const main = document.getElementById("main");
    return main && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
  });
  expect(await page.evaluate(() => document.documentElement.classList.contains("js"))).toBe(true);
  // A link followed on the client: the document is not loaded again.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const link = page.locator(`main a[href^="${MARKET}?"]`).first();
  const href = await link.getAttribute("href");
  await link.click();
  await expect(page).toHaveURL((url) => url.pathname + url.search === href!.replaceAll("&amp;", "&"));
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

  await csp.expectNone();
});

test("a signed-in player's market page keeps its nonce and is private", async ({ page, createAccount, signIn }) => {
  const account = await createAccount();
  await signIn(page, account);
  const response = await page.goto(MARKET);
  const headers = response!.headers();
  expect(headers["cache-control"]).toBe("private, no-cache");
  expect(headers["etag"]).toBeUndefined();
  const nonce = /'nonce-([0-9a-f]+)'/.exec(headers["content-security-policy"]!)?.[1];
  expect(nonce).toMatch(/^[0-9a-f]{32}$/);
  expect(await response!.text()).toContain(`nonce="${nonce}"`);
  await page.waitForFunction(() => {
    const main = document.getElementById("main");
    return main && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
  });
});
