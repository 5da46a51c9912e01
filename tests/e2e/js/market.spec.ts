import { expect, test } from "../accounts";

test("with JavaScript the filter form applies itself, lands on the canonical URL and keeps focus", async ({ page }) => {
  await page.goto("/marketplace/market?nftType=0");
  const camp = page.getByRole("group", { name: "Camp" });
  // The form says so once React runs it.
  await expect(page.getByText("Changes apply by themselves.")).toBeVisible();
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

  await camp.getByLabel("Empire of Amda").check();
  await expect(page).toHaveURL("/marketplace/market?nftType=0&camp=1");
  await expect(camp.getByLabel("Empire of Amda")).toBeFocused();
  const cards = page.getByRole("list", { name: "Items on sale" }).getByRole("article");
  await expect(cards.first()).toBeVisible();
  for (const card of await cards.all()) await expect(card.getByText("Empire of Amda")).toBeVisible();

  // A typed number applies once it is committed (leaving the input), not on every keystroke.
  await page.getByLabel("Level Min").fill("3");
  await expect(page).toHaveURL("/marketplace/market?nftType=0&camp=1");
  await page.getByLabel("Level Min").press("Tab");
  await expect(page).toHaveURL("/marketplace/market?nftType=0&camp=1&level=3,");

  await page.getByRole("link", { name: "Remove filter Camp: Empire of Amda" }).click();
  await expect(page).toHaveURL("/marketplace/market?nftType=0&level=3,");
  await expect(camp.getByLabel("Empire of Amda")).not.toBeChecked();
  // All of it happened without a page load.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test("with JavaScript the favorite toggles at once, without leaving the page", async ({ page, createAccount, signIn }) => {
  await signIn(page, await createAccount({ stock: {} }));
  await page.goto("/marketplace/market?nftType=8");
  await page.getByRole("list", { name: "Items on sale" }).getByRole("article").first().getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Item detail" })).toBeVisible();
  const detailUrl = new URL(page.url());
  // Hydrated: the toggle now asks the action for data instead of a redirect.
  await expect(page.locator('input[name="mode"][value="fetch"]')).toHaveCount(1);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

  const count = async () => Number((await page.getByText(/^\d+ favorites?$/).innerText()).split(" ")[0]);
  const before = await count();
  await page.getByRole("button", { name: "Add to favorites" }).click();
  await expect(page.getByRole("button", { name: "Remove from favorites" })).toBeVisible();
  await expect(page.getByText(`${before + 1} favorite`)).toBeVisible();
  await page.getByRole("button", { name: "Remove from favorites" }).click();
  await expect(page.getByRole("button", { name: "Add to favorites" })).toBeVisible();
  await expect(page.getByText(new RegExp(`^${before} favorites?$`))).toBeVisible();

  expect(page.url()).toBe(detailUrl.href);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  // The server agrees after a reload.
  await page.reload();
  await expect(page.getByRole("button", { name: "Add to favorites" })).toBeVisible();
  expect(await count()).toBe(before);
});
