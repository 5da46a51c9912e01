import { expect, test } from "@playwright/test";
import { DEMO, logIn } from "../fixtures";
import { ROUTES } from "../routes";

for (const route of ROUTES) {
  test(`${route.path} renders on the server`, async ({ page }) => {
    const response = await page.goto(route.path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: route.heading })).toBeVisible();
  });
}

test("no page holds U+0000, for a visitor or a signed-in player (React 18 padded its 2 KB views with zeros)", async ({ page }) => {
  // The pages the zeros were found on (a filter chip's ✕, a card's "·"), then every route.
  const paths = [
    "/marketplace/market?nftType=0&page=2",
    "/marketplace/statistics?nftType=0&page=2",
    "/player/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266?nftType=0",
    ...ROUTES.map((route) => route.path),
  ];
  const zerosIn = async () => {
    const found: string[] = [];
    for (const path of paths) {
      const body = await (await page.request.get(path)).body();
      if (body.includes(0)) found.push(path);
    }
    return found;
  };
  expect(await zerosIn()).toEqual([]);
  await logIn(page, DEMO);
  expect(await zerosIn()).toEqual([]);
});

test("/ redirects to /home", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { level: 1, name: "Join the metaverse" })).toBeVisible();
});

test("/stripe/success has no header and shows the order", async ({ page }) => {
  await page.goto("/stripe/success?session_id=cs_test_demo");
  await expect(page.getByRole("heading", { name: "Order details" })).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("Waiting for payment");
  await expect(page.getByRole("banner")).toHaveCount(0);
  await page.goto("/stripe/demo");
  await expect(page.getByRole("banner")).toHaveCount(1);
});

test("an unknown route gives the 404 page", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "We can’t find this page" })).toBeVisible();
  await expect(page.getByRole("banner")).toBeVisible();
});

test("an unknown pool or a non-numeric pool id is a 404, not a crash", async ({ page }) => {
  for (const path of ["/loyalty/page/9", "/loyalty/rewards/abc", "/loyalty/page/1e3"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "We can’t find this page" })).toBeVisible();
  }
});

test('the rewards pages name their box with the right article (no more "earn a Epic loot box")', async ({ page }) => {
  for (const [poolId, box] of [
    ["1", "Standard"],
    ["2", "Epic"],
    ["3", "Legendary"],
  ]) {
    await page.goto(`/loyalty/rewards/${poolId}`);
    await expect(page.getByRole("main")).toContainText(`earns one ${box} loot box`);
    expect(await page.locator("body").innerText()).not.toMatch(/\ba (Epic|Standard|Legendary)\b/);
  }
});

test("the marketplace tab bar navigates between its children", async ({ page }) => {
  await page.goto("/marketplace");
  const tabs = page.getByRole("navigation", { name: "Marketplace" });
  await tabs.getByRole("link", { name: "Statistics" }).click();
  await expect(page).toHaveURL(/\/marketplace\/statistics$/);
  await expect(page.getByRole("heading", { level: 1, name: "Statistics" })).toBeVisible();
  await tabs.getByRole("link", { name: "Market" }).click();
  await expect(page).toHaveURL(/\/marketplace\/market$/);
});

test("/stripe/success for an unknown payment says so with a 404", async ({ page }) => {
  const response = await page.goto("/stripe/success?session_id=cs_unknown");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Payment not found" })).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);
});
