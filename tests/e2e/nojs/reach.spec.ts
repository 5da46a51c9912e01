import { expect, test } from "../accounts";
import { DEMO, MANAGED } from "../fixtures";
import { REACH_PATHS, REACH_VIEWPORTS, unreachableOnPages } from "../reach";

const USERS = { visitor: null, "bound wallet": DEMO, "managed wallet": MANAGED } as const;

for (const [size, viewport] of Object.entries(REACH_VIEWPORTS)) {
  for (const [who, account] of Object.entries(USERS)) {
    test(`at ${viewport.width} px, for a ${who}, every control of every page lies in the window, uncovered`, async ({ page, signIn }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(viewport);
      if (account) await signIn(page, account);
      expect(await unreachableOnPages(page, REACH_PATHS), `${size}, ${who}`).toEqual([]);
    });
  }
}
