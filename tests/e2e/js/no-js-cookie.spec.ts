/**
 * Issue 23, with JavaScript on: the no-JS cookie (set by the <noscript> image of a browser that ran no script)
 * never keeps a browser without its scripts once JavaScript is back, and a page keeps every module preload.
 */
import { expect, test, type Page } from "@playwright/test";

/** The documents the page loads from now on (a client navigation loads none). */
function countDocuments(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => void (request.resourceType() === "document" && urls.push(request.url())));
  return urls;
}

test("a browser with JavaScript that still carries the no-JS cookie drops it and gets the full page", async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: "js", value: "off", url: baseURL! }]);
  const pages: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "document") pages.push(response.url());
  });
  await page.goto("/marketplace/market");
  // The lite page's inline script deleted the cookie and reloaded: the page now has its scripts.
  await expect.poll(() => page.locator("link[rel=modulepreload]").count()).toBeGreaterThan(5);
  expect(pages).toHaveLength(2);
  expect((await context.cookies()).some((cookie) => cookie.name === "js")).toBe(false);
  await expect(page.getByTestId("lite-notice")).toHaveCount(0);
});

test("a page written for JavaScript gets every module preload Remix lists, each fetched once", async ({ page, request }) => {
  const html = await (await request.get("/home")).text();
  // Remix's link tags, written inert (a media no device matches) for browsers without JavaScript.
  const listed = [...html.matchAll(/<link rel="modulepreload" media="not all" href="([^"]+\.js)"\/>/g)].map((match) => match[1]!);
  expect(listed.length).toBeGreaterThan(10);
  const fetched: string[] = [];
  page.on("request", (req) => {
    if (req.url().includes("/build/")) fetched.push(new URL(req.url()).pathname);
  });
  const errors: string[] = [];
  page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
  page.on("pageerror", (error) => void errors.push(error.message));
  await page.goto("/home");
  await page.waitForLoadState("networkidle");
  // The inert links hydrate as they are: no hydration error, and the page is live (a client navigation).
  const documents = countDocuments(page);
  await page.getByRole("main").getByRole("link", { name: "See every loot box, its limits and your boxes" }).click();
  await expect(page).toHaveURL("/game#lootboxes");
  expect(documents).toEqual([]);
  expect(errors).toEqual([]);
  const preloads = await page.locator("link[rel=modulepreload]").evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  expect(preloads).toEqual(expect.arrayContaining(listed));
  for (const src of listed)
    expect(
      fetched.filter((path) => path === src),
      src,
    ).toHaveLength(1);
  // Hydrated as always: the inert tags are gone.
  expect(await page.locator('link[media="not all"]').count()).toBe(0);
});
