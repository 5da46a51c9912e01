/**
 * Issue 23: a browser that runs no script downloads none. Chromium with JavaScript off fetched every modulepreload
 * link (18 to 25 scripts a page here, 112 over this journey). The preloads are now added by an inline script, and the
 * first page's <noscript> image sets the no-JS cookie, so the pages after it are rendered without scripts at all, and
 * without the lite notice the visitor never asked for.
 */
import { expect, test } from "@playwright/test";

const JOURNEY = ["/home", "/marketplace/market", "/lootbox/4", "/game", "/marketplace/statistics"];

test("a five-page journey with JavaScript off fetches no script, and its pages after the first carry none", async ({ page, context }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script" || /\.m?js(\?|$)/.test(new URL(request.url()).pathname)) scripts.push(request.url());
  });
  const perPage: number[] = [];
  const tags: number[] = [];
  for (const path of JOURNEY) {
    const before = scripts.length;
    expect((await page.goto(path))?.status()).toBe(200);
    await page.waitForLoadState("networkidle");
    perPage.push(scripts.length - before);
    tags.push(await page.locator("script[src], link[rel=modulepreload]").count());
    await expect(page.getByTestId("lite-notice")).toHaveCount(0);
  }
  console.log(`scripts fetched per page with JavaScript off: ${perPage.join(", ")}`);
  expect(tags.slice(1)).toEqual([0, 0, 0, 0]);
  expect(perPage).toEqual([0, 0, 0, 0, 0]);
  expect((await context.cookies()).find((cookie) => cookie.name === "js")?.value).toBe("off");
});

test("a page rendered for JavaScript adds its module preloads by an inline script in its head; its link tags are inert", async ({
  request,
}) => {
  const html = await (await request.get("/marketplace/market")).text();
  // In the head, so the modules are fetched while the rest of the page is parsed, not after it (issue 42).
  const head = html.slice(0, html.indexOf("</head>"));
  expect(head).toMatch(/for\(const h of \[/);
  // Every preload link of the HTML matches no media: valid HTML that fetches nothing.
  expect(html.match(/<link rel="modulepreload" href=/g)).toBeNull();
  const inert = [...html.matchAll(/<link rel="modulepreload" media="not all" href="([^"]+\.js)"\/>/g)].map((match) => match[1]);
  const written = JSON.parse(html.match(/for\(const h of (\[[^\]]*\])\)/)![1]!) as string[];
  expect(written.length).toBeGreaterThan(10);
  expect(new Set(written)).toEqual(new Set(inert));
  // The no-JS marker, for a browser that runs no script.
  expect(html.includes('<noscript><img src="/resources/no-js"')).toBe(true);
});
