import { expect, test } from "@playwright/test";
import { seriousViolations } from "../axe";
import { ROUTES } from "../routes";

for (const route of [...ROUTES, { path: "/no/such/page", heading: "We can’t find this page" }]) {
  test(`${route.path} has no serious accessibility violations`, async ({ page }) => {
    await page.goto(route.path);
    await expect(page.getByRole("heading", { level: 1, name: route.heading })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
