import { expect, test } from "../accounts";
import { DEMO, MANAGED } from "../fixtures";
import { REACH_PATHS, REACH_VIEWPORTS, unreachableOnPages } from "../reach";
import { anvilKey, installTestWallet } from "../wallet";

const USERS = { visitor: null, "bound wallet, connected": DEMO, "managed wallet": MANAGED } as const;

for (const [size, viewport] of Object.entries(REACH_VIEWPORTS)) {
  for (const [who, account] of Object.entries(USERS)) {
    test(`at ${viewport.width} px, for a ${who}, every control of every page lies in the window, uncovered`, async ({ page, signIn }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(viewport);
      if (account) await signIn(page, account);
      if (account === DEMO) {
        // The header as a player with their extension connected sees it: the address on the wallet button.
        await installTestWallet(page, { privateKey: anvilKey(0) });
        await page.goto("/home");
        await page.getByTestId("wallet-button").locator("..").click();
        await page.getByRole("button", { name: /^MetaMask/ }).click();
        await expect(page.getByTestId("wallet-address")).toBeVisible();
        await page.keyboard.press("Escape");
      }
      expect(await unreachableOnPages(page, REACH_PATHS), `${size}, ${who}`).toEqual([]);
    });
  }
}
