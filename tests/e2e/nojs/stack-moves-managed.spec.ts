/**
 * Issue 28 acceptance, JavaScript off, a managed wallet: a game stack of 100 Silver, 40 moved to the chain from
 * storage (60 stay in the game, 40 show on chain once the indexer has seen it), then 15 of those moved back (75 in
 * the game, 25 on chain). An amount the stack does not hold is refused next to its field, with nothing signed.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { chainReader, reloadUntil, waitForOutcome } from "../managed-chain";
import { PHONE } from "../mobile";

const STORAGE = "/marketplace/storage?nftType=8";

/** The storage card of the stack whose name starts with `name` ("Silver ×60"). */
const card = (page: Page, name: string): Locator =>
  page
    .getByRole("list", { name: "My items" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: new RegExp(`^${name} #`) }) });

/** What a card says the stack holds and where, as a person reads it. */
async function expectStack(stack: Locator, amount: number, where: string, quick = expect) {
  await quick(stack.getByRole("definition").filter({ hasText: /^\d+$/ })).toHaveText(String(amount));
  await quick(stack.getByText(where, { exact: true })).toBeVisible();
}

test("a managed wallet moves 40 of a stack of 100 to the chain, then 15 back into the game", async ({ page, createAccount, signIn }) => {
  test.setTimeout(120_000);
  const account = await createAccount({ stock: { stacks: [{ material: 1, amount: 100 }] }, chain: { BNB: 1 } });
  const [stack] = account.items;
  const wallet = account.wallet!;
  await signIn(page, account);
  await page.goto(STORAGE);
  const game = card(page, "Silver ×100");
  await expectStack(game, 100, "In the game");
  await expect(game.getByLabel(/^Amount/)).toHaveValue("100");

  // More than the stack holds (the field's max stops it in the browser; a page left open while the stack shrank
  // does not): refused by the server next to the field, nothing signed.
  await game.getByLabel(/^Amount/).evaluate((input) => input.removeAttribute("max"));
  await game.getByLabel(/^Amount/).fill("101");
  await game.getByRole("button", { name: /^Move to chain: / }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The item was not moved");
  await expect(page.getByLabel(/^Amount/)).toHaveAccessibleDescription("Enter a whole number from 1 to 100.");
  await expect(page.getByLabel(/^Amount/)).toHaveValue("101");
  expect(await chainReader().sent(wallet)).toBe(0);

  // 40 from the refusal page's form, as a person would correct it there.
  await page.getByLabel(/^Amount/).fill("40");
  await page.getByRole("button", { name: "Move to chain" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Claim 40 Silver to the chain | Spark Era");
  await page.getByRole("link", { name: "Back" }).first().click();
  await expect(page).toHaveURL(/\/marketplace\/storage\?/);
  await reloadUntil(page, async (quick) => {
    await expectStack(card(page, "Silver ×40"), 40, "On chain", quick);
    await expectStack(card(page, "Silver ×60"), 60, "In the game", quick);
  });
  await expect(card(page, "Silver ×60").getByRole("link", { name: `Silver ×60 #${stack!.tokenId}` })).toBeVisible();

  await page.setViewportSize(PHONE);
  await page.screenshot({ path: test.info().outputPath("storage-chain-stack-390.png"), fullPage: true });

  // 15 of the 40 back into the game: the approval for the asset manager, then the swap.
  const onChain = card(page, "Silver ×40");
  await expect(onChain.getByLabel(/^Amount/)).toHaveValue("40");
  await onChain.getByLabel(/^Amount/).fill("15");
  await onChain.getByRole("button", { name: /^Move into the game: / }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Move 15 Silver into the game | Spark Era");
  await page.getByRole("link", { name: "Back" }).first().click();
  await reloadUntil(page, async (quick) => {
    await expectStack(card(page, "Silver ×75"), 75, "In the game", quick);
    await expectStack(card(page, "Silver ×25"), 25, "On chain", quick);
  });
  await expect(page.getByRole("list", { name: "My items" }).getByRole("listitem")).toHaveCount(2);

  // The chain stack's page: the ERC-1155 id the chain knows it by, and what the wallet holds of it.
  await page.getByRole("link", { name: "Silver ×25 #8001", exact: true }).click();
  const facts = page.getByRole("definition");
  await expect(page.getByRole("term").filter({ hasText: /^Token id$/ })).toBeVisible();
  await expect(facts.filter({ hasText: "8001 (SparkItems, ERC-1155)" })).toBeVisible();
  await expect(
    page
      .getByRole("term")
      .filter({ hasText: /^Amount$/ })
      .first(),
  ).toBeVisible();
  // The move's amount (the chain trade forms have amounts of their own).
  await expect(page.getByLabel(/^Amount \(you hold 25\)/)).toHaveValue("25");
});
