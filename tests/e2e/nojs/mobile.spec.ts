import { expect, test } from "../accounts";
import { DEMO } from "../fixtures";
import { MOBILE_PATHS, overflowingPages, PHONE } from "../mobile";

test.use({ viewport: PHONE });

test("at 390 px no page is wider than the screen, for a visitor and for a player with a bound wallet", async ({ page, signIn }) => {
  test.setTimeout(120_000);
  expect(await overflowingPages(page)).toEqual([]);
  await signIn(page, DEMO);
  expect(await overflowingPages(page, [...MOBILE_PATHS, "/invite"])).toEqual([]);
  // The header keeps its buttons on the screen: icons, with their names for screen readers.
  await expect(page.getByLabel("Menu", { exact: true })).toBeInViewport();
});
