import { expect, test } from "../accounts";
import { injectTestWallet } from "../wallet";

// Slow phones: people type into the server-rendered form before its lazy chunk arrives, and hydration must keep it.
test("a price typed before the sell form's chunk arrives survives hydration", async ({ page, createAccount, signIn }) => {
  test.setTimeout(60_000);
  const account = await createAccount({ wallet: "browser" });
  await injectTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested = () => {};
  const chunkRequested = new Promise<void>((resolve) => (requested = resolve));
  await page.route(/\/build\/_shared\/sell-form-[^/]+\.js$/, async (route) => {
    requested();
    await held;
    await route.continue();
  });
  // Hydration starts only once the price is typed.
  let typed = () => {};
  const typing = new Promise<void>((resolve) => (typed = resolve));
  await page.route(/\/build\/entry\.client-[^/]+\.js$/, async (route) => {
    await typing;
    await route.continue();
  });
  await page.goto(account.items[0].url, { waitUntil: "domcontentloaded" });
  await page.getByLabel("Price").fill("7.25");
  typed();
  await chunkRequested;
  // The rest of the page hydrates (React's fiber on the panel's heading) and its effects run before the chunk comes.
  await page.waitForFunction(() => {
    const heading = document.getElementById("trade-title");
    return heading && Object.keys(heading).some((key) => key.startsWith("__reactFiber"));
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
  release();

  await expect(page.getByRole("button", { name: "List for sale" })).toBeEnabled();
  await expect(page.getByLabel("Price")).toHaveValue("7.25");
  expect(errors).toEqual([]);
});
