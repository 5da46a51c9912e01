/**
 * Issue 42: a player chooses the name other players see, on their own player page, without JavaScript. The name shows
 * on the page and on the items the player holds; another player cannot take it in any case (the message is next to the
 * field); a player without a name is shown by their wallet, never by their email.
 */
import { type Page } from "@playwright/test";
import { shortAddress } from "~core/address";
import { DISPLAY_NAME_TAKEN } from "~core/display-name";
import { type Account, expect, test } from "../accounts";

/** Names are unique across the database every project shares: each run takes its own (letters and digits, ≤ 20). */
function freshName(tag: string): string {
  return `${tag}${Date.now().toString(36).slice(-6)}${Math.random().toString(36).slice(2, 5)}`;
}

const nameField = (page: Page) => page.getByRole("textbox", { name: "Display name" });

/** Posts the name form with `button`, and answers the post's status. */
async function post(page: Page, button: "Save name" | "Remove name"): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((answer) => answer.request().method() === "POST"),
    page.getByRole("button", { name: button }).click(),
  ]);
  await page.waitForLoadState();
  return response.status();
}

async function expectNamedByWallet(page: Page, account: Account) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(shortAddress(account.wallet!));
  await expect(page.getByRole("main")).toContainText(account.wallet!);
  // The header is the viewer's own (their email, maybe); the page and its share tags never name anyone by an email,
  // whole or masked.
  const named = (await page.locator("head").innerHTML()) + (await page.getByRole("main").innerHTML());
  for (const secret of [account.email, "***@"]) expect(named.includes(secret), secret).toBe(false);
}

test("a player sets, changes and removes their name; another player cannot take it in any case", async ({
  page,
  browser,
  createAccount,
  signIn,
}) => {
  const [pilot, rival] = await Promise.all([
    createAccount({ tag: "named", stock: { items: { 0: 1 } } }),
    createAccount({ tag: "rival", stock: {} }),
  ]);
  const name = freshName("Pilot ");

  // The account sheet leads to the player's own page, where the name is chosen.
  await signIn(page, pilot);
  await page.goto("/home");
  await page.getByRole("banner").locator("summary").filter({ hasText: pilot.email }).click();
  await page.getByRole("link", { name: "Your player page and name" }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/player/${pilot.wallet}`);
  await expectNamedByWallet(page, pilot);

  // The action checks the rule without JavaScript, next to the field.
  await nameField(page).fill("ab");
  expect(await post(page, "Save name")).toBe(400);
  await expect(nameField(page)).toHaveAccessibleDescription(/A name has 3 to 20 characters\./);
  await expect(nameField(page)).toHaveValue("ab");

  await nameField(page).fill(`  ${name} `);
  expect(await post(page, "Save name")).toBe(302);
  await expect(page.getByText(`Your name is now ${name}.`)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(nameField(page)).toHaveValue(name);
  // The page's share tags name the player too.
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", `${name} · Player`);

  // Another player sees the name on an item the player holds, linked to their page, the wallet in its title.
  const rivalPage = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await signIn(rivalPage, rival);
  await rivalPage.goto(pilot.items[0]!.url);
  const holder = rivalPage.getByRole("link", { name, exact: true });
  await expect(holder).toHaveAttribute("href", `/player/${pilot.wallet}`);
  await expect(holder).toHaveAttribute("title", pilot.wallet!);

  // The other player, in another case: the name is taken, said next to the field, and nothing changes.
  await rivalPage.goto(`/player/${rival.wallet}`);
  await nameField(rivalPage).fill(name.toUpperCase());
  expect(await post(rivalPage, "Save name")).toBe(409);
  await expect(nameField(rivalPage)).toHaveAccessibleDescription(new RegExp(DISPLAY_NAME_TAKEN));
  await expect(nameField(rivalPage)).toHaveValue(name.toUpperCase());
  // A player without a name is shown by their wallet, to others as on their own page.
  await expectNamedByWallet(rivalPage, rival);
  await page.goto(`/player/${rival.wallet}`);
  await expectNamedByWallet(page, rival);
  await expect(nameField(page)).toHaveCount(0);

  // Removed, the name is the wallet again, and free for the other player.
  await page.goto(`/player/${pilot.wallet}`);
  expect(await post(page, "Remove name")).toBe(302);
  await expect(page.getByText("Your name is removed: players see your wallet address.")).toBeVisible();
  await expectNamedByWallet(page, pilot);
  await nameField(rivalPage).fill(name.toLowerCase());
  expect(await post(rivalPage, "Save name")).toBe(302);
  await expect(rivalPage.getByRole("heading", { level: 1 })).toHaveText(name.toLowerCase());
  await rivalPage.context().close();
});
