/**
 * Issue 12 with JavaScript on: the managed wallet's forms submit without a reload, and the status page updates
 * in place (a marker set on `window` before posting survives to the end), with the same outcome as without it.
 */
import { expect, test } from "../accounts";
import { chainReader, waitForOutcome } from "../managed-chain";

const MARKER = "__sameDocument";

test("a managed wallet buys a box and opens it now, the status updating in place without a reload", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(60_000);
  const account = await createAccount({ wallet: "managed", stock: {}, chain: { BNB: 1, USDT: 100 } });
  await signIn(page, account);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto("/lootbox/5");
  // No browser-wallet island for a managed wallet: its forms are the page's own.
  await expect(page.getByRole("button", { name: "Connect wallet" })).toHaveCount(0);
  // Posted before hydration, the form would go as a document request: wait for Remix's router.
  await page.waitForFunction(
    () => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized,
  );
  await page.evaluate((marker) => Object.assign(window, { [marker]: true }), MARKER);

  await page.getByRole("radio", { name: /^BNB/ }).check();
  await page.getByRole("button", { name: "Buy", exact: true }).click();
  await expect(page).toHaveURL(/\/actions\/[0-9a-f]{32}/);
  // The first rendering is not the last: the page revalidates itself until the purchase is mined.
  await waitForOutcome(page);
  await expect(page.getByRole("status").filter({ hasText: /^Done:/ })).toHaveAttribute("aria-live", "polite");
  await expect(page.getByRole("list", { name: "Progress" }).getByTestId("progress-step")).toHaveText([
    /^Queued: taken up/,
    /^Buy 1 Premium loot box for 0\.1 BNB: mined in block \d+/,
    /^Now Mined: all done in block \d+/,
  ]);
  const [box] = await chainReader().boxes(account.wallet!);
  await expect(page.getByTestId("new-boxes")).toHaveText(`#${box.id}`);

  await page.getByRole("button", { name: "Open now" }).click();
  await expect(page).toHaveTitle("Open 1 loot box | Spark Era");
  await waitForOutcome(page);
  // A Premium box holds a hero card, an equipment piece and a material.
  await expect(page.getByRole("list", { name: "New items" }).getByTestId("opened-item")).toHaveCount(3);
  expect(await page.evaluate((marker) => (window as unknown as Record<string, unknown>)[marker], MARKER)).toBe(true);
  expect(await chainReader().boxes(account.wallet!)).toEqual([]);
  expect(errors).toEqual([]);
});
