import { expect, test } from "@playwright/test";
import { DEMO_MANAGED_ACCOUNT } from "~core/demo";
import { seriousViolations } from "../axe";
import { logIn, MANAGED } from "../fixtures";
import { ROUTES } from "../routes";

for (const route of [...ROUTES, { path: "/no/such/page", heading: "We can’t find this page" }]) {
  test(`${route.path} has no serious accessibility violations`, async ({ page }) => {
    await page.goto(route.path);
    await expect(page.getByRole("heading", { level: 1, name: route.heading })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("a player's own page, with the display name form and its refusal, has no serious accessibility violations", async ({ page }) => {
  await logIn(page, MANAGED);
  await page.goto(`/player/${DEMO_MANAGED_ACCOUNT.wallet}`);
  const field = page.getByRole("textbox", { name: "Display name" });
  await expect(field).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // A refused name: the browser's message next to the field, as the action's would be.
  await field.fill("ab");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(field).toHaveAccessibleDescription(/A name has 3 to 20 characters\./);
  expect(await seriousViolations(page)).toEqual([]);
});
