/**
 * Issue 16, observability as a browser and a client see it: without SENTRY_DSN (the suite's server sets none) no
 * Sentry script is requested; pages and data requests say where their time went (Server-Timing); every answer
 * names its request id, and keeps the one the client sent when it is valid; /metrics is not served without config.
 */
import { expect, test } from "@playwright/test";

test("without a DSN, the home page requests no Sentry script", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script" || /\.m?js(\?|$)/.test(request.url())) scripts.push(request.url());
  });
  await page.goto("/home");
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /sentry/i.test(url))).toEqual([]);
  expect(await page.locator('script[src*="sentry" i], link[href*="sentry" i]').count()).toBe(0);
});

test("a market page and its data request carry Server-Timing: loader, backend, render", async ({ request }) => {
  // A cookie keeps the page away from the page cache: it is rendered for this request.
  const headers = { Cookie: "observability=1" };
  const page = await request.get("/marketplace/market?nftType=4", { headers });
  expect(page.status()).toBe(200);
  const names = (value: string | undefined) => (value ?? "").split(",").map((metric) => metric.trim().split(";")[0]);
  expect(names(page.headers()["server-timing"])).toEqual(["loader", "backend", "render"]);
  expect(page.headers()["server-timing"]).toMatch(/^loader;dur=\d+\.\d, backend;dur=\d+\.\d;desc="[1-9]\d* calls", render;dur=\d+\.\d$/);

  const data = await request.get("/marketplace/market.data?nftType=4", { headers });
  expect(data.status()).toBe(200);
  expect(names(data.headers()["server-timing"])).toEqual(["loader", "backend"]);
});

test("every answer names its request id, the client's own when it is valid", async ({ request }) => {
  const made = await request.get("/home");
  expect(made.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  const kept = await request.get("/home", { headers: { "X-Request-Id": "edge-42.abc" } });
  expect(kept.headers()["x-request-id"]).toBe("edge-42.abc");
});

test("/metrics is not served without METRICS_TOKEN or METRICS_PORT", async ({ request }) => {
  expect((await request.get("/metrics")).status()).toBe(404);
});
