/**
 * The item page's chain forms as a managed seller uses them with JavaScript off (issue 28): the page of an item once
 * the market's indexer has seen it in the wallet, and the trading contract's approval that the first "Sell on chain"
 * post sends. Shared by the card and the stack specs.
 */
import { expect, type Page } from "@playwright/test";
import { reloadUntil, waitForOutcome } from "./managed-chain";

/** The title of trade.approve's status page for a wallet that approved nothing yet: it names every collection. */
const APPROVED = "Let the trading contract move your cards, material stacks and loot boxes when they sell | Spark Era";

/** The item's page once the indexer has seen it in the wallet: its "Sell on chain" form is there. */
export async function openHeld(page: Page, url: string) {
  await page.goto(url);
  await reloadUntil(page, (quick) => quick(page.getByRole("form", { name: "Sell on chain" })).toBeVisible());
}

/** The first "Sell on chain" post of a wallet that has not approved the trading contract: its approval, followed to the end. */
export async function approveTrading(page: Page) {
  const sell = page.getByRole("form", { name: "Sell on chain" });
  await sell.getByLabel("Price").fill("1");
  await sell.getByRole("button", { name: "Approve the trading contract" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(APPROVED);
  await page.getByRole("link", { name: "Back to the item" }).click();
}
