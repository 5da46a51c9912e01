/**
 * Issue 15: the power and duration-lost calculators work without JavaScript, keep every input in the URL (a
 * bookmark opens the same calculation), and answer a bad input with a 400 and its message next to the field.
 */
import { expect, test } from "../accounts";
import { mintItems } from "../chain-funds";
import { reloadUntil } from "../managed-chain";
import type { ListingRecord } from "~core/api/market";
import { encodeItem } from "~core/item-data";
import { SPACESHIP_STATS } from "~core/nft";

test("a calculation is a URL: fill the form, get the figures, open the bookmark again", async ({ page }) => {
  await page.goto("/spaceship/calculator");
  const form = page.getByRole("form", { name: "Power and duration-lost calculator" });
  await form.getByLabel("Rank").selectOption({ label: "Rare" });
  for (const stat of ["Endurance", "Agility", "Pisonic", "Strength", "Crit", "Spirit", "Armor"]) await form.getByLabel(stat).fill("60");
  await form.getByLabel("Mining hours").fill("2");
  await form.getByRole("button", { name: "Calculate" }).click();

  await expect(page).toHaveURL(/[?&]shipType=2&level=1&endurance=60&.*hours=2&minutes=0/);
  const result = page.getByTestId("calculator-result");
  await expect(result.getByTestId("calc-power")).toHaveText("420");
  await expect(result.getByTestId("calc-lost")).toHaveText("2 h 14 m 24 s");
  await expect(result.getByTestId("calc-DarkIron")).toHaveText("84");
  await expect(result.getByTestId("calc-Silver")).toHaveText("16");
  await expect(result.getByTestId("calc-Gold")).toHaveText("1");

  // A Legendary weapon at level 3 adds 150 power; the bookmark of it opens as it was.
  await form.getByLabel("Weapon", { exact: true }).selectOption({ label: "Legendary" });
  await form.getByLabel("Weapon level").fill("3");
  await form.getByRole("button", { name: "Calculate" }).click();
  await expect(result.getByTestId("calc-power")).toHaveText("570");
  const bookmark = page.url();
  await page.goto("/home");
  await page.goto(bookmark);
  await expect(page.getByTestId("calc-power")).toHaveText("570");
});

test("a bad input answers 400 with its message next to the field", async ({ page }) => {
  const response = await page.goto("/spaceship/calculator?level=12&crit=300&hours=1");
  expect(response?.status()).toBe(400);
  await expect(page.getByLabel("Level", { exact: true })).toHaveAccessibleDescription("Enter a level from 1 to 10.");
  await expect(page.getByLabel("Crit")).toHaveAccessibleDescription("Enter Crit as a whole number from 0 to 255.");
  await expect(page.getByTestId("calculator-result")).toHaveCount(0);
});

test("a ship's page starts the calculators from its figures, and an unknown ship is a 404 with a message", async ({
  page,
  createAccount,
}) => {
  const account = await createAccount({ wallet: "managed", stock: {}, chain: { BNB: 1 } });
  const [shipId] = await mintItems(account.wallet!, [encodeItem.spaceship({ shipType: 2, level: 1, stats: [60, 60, 60, 60, 60, 60, 60] })]);
  await page.goto(`/spaceship/detail?tokenId=${shipId}`);
  const form = page.getByRole("form", { name: "Power and duration-lost calculator" });
  await reloadUntil(page, (expect) => expect(form.getByLabel("Endurance")).toHaveValue("60"));
  await expect(form.getByLabel("Rank")).toHaveValue("2");
  await expect(page.getByTestId("ship-power")).toHaveText("420");
  await expect(page.getByTestId("calculator-result").getByTestId("calc-power")).toHaveText("420");
  await page.getByRole("link", { name: "Open this calculation on its own page" }).click();
  await expect(page).toHaveURL(/\/spaceship\/calculator\?.*shipType=2&level=1&endurance=60/);
  await expect(page.getByTestId("calc-power")).toHaveText("420");

  const missing = await page.goto("/spaceship/detail?tokenId=999999999999");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("alert")).toHaveText("There is no ship #999999999999.");
  const bad = await page.goto("/spaceship/detail?tokenId=abc");
  expect(bad?.status()).toBe(400);
  await expect(page.getByLabel("Ship token id")).toHaveAccessibleDescription("Enter a ship's token id: its number, as in Ship #12.");
});

test("a ship still in the game starts the calculators from the game's figures, not from a Common level-1 ship", async ({
  page,
  request,
  createAccount,
  signIn,
}) => {
  const account = await createAccount({ wallet: "managed", stock: { items: { 4: 1 } } });
  const [ship] = account.items;
  const answer = await request.get(`/api/v1/informationCenter/tokenDetailByTokenId?nftType=4&tokenId=${ship.tokenId}`);
  const { data: game } = (await answer.json()) as { data: ListingRecord };
  expect(game.location).toBe("game");
  // Figures the plain defaults (Common, level 1, every stat 50) would not show by chance.
  expect([game.rank, game.level, ...SPACESHIP_STATS.map((stat) => game[stat])]).not.toEqual([1, 1, 50, 50, 50, 50, 50, 50, 50]);
  await signIn(page, account);
  await page.goto(`/spaceship/detail?tokenId=${ship.tokenId}`);
  await expect(page.getByText("This ship is in the game.")).toBeVisible();
  const form = page.getByRole("form", { name: "Power and duration-lost calculator" });
  await expect(form.getByLabel("Rank")).toHaveValue(String(game.rank));
  await expect(form.getByLabel("Level", { exact: true })).toHaveValue(String(game.level));
  for (const stat of SPACESHIP_STATS) {
    await expect(form.getByLabel(new RegExp(`^${stat}$`, "i"))).toHaveValue(String(game[stat]));
  }
});
