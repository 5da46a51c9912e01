/**
 * Issue 23 (3), JavaScript off: storage and the item page offer "Move to chain" only where the market will take it,
 * and elsewhere say why in one line, with no button (core/item-moves.ts, the rule the market refuses by).
 */
import { expect, test } from "../accounts";
import { MANAGED } from "../fixtures";
import { MOVE_REFUSALS } from "~core/item-moves";
import { NFT_TYPE } from "~core/nft";

const REFUSED = [
  [NFT_TYPE.halloween, MOVE_REFUSALS.halloween],
  [NFT_TYPE.pse, MOVE_REFUSALS.pse],
  [NFT_TYPE.egse, MOVE_REFUSALS.egse],
  [NFT_TYPE.lootbox, MOVE_REFUSALS.gameOnlyBox],
] as const;

test("storage and the item page show why an item cannot move to the chain, with no button, and offer it where it can", async ({
  page,
  signIn,
}) => {
  // The managed demo account's seeded game items (game-issued boxes, PSEs…), only read.
  await signIn(page, MANAGED);
  const items = page.getByRole("list", { name: "My items" });
  for (const [nftType, reason] of REFUSED) {
    await page.goto(`/marketplace/storage?nftType=${nftType}`);
    const cards = await items.getByRole("listitem").count();
    expect(cards, `type ${nftType}`).toBeGreaterThan(0);
    // Every card says why it stays (the boxes the deploy forged on chain: that a box is opened there).
    await expect(items.getByTestId("move-refused"), `type ${nftType}`).toHaveCount(cards);
    await expect(items.getByTestId("move-refused").filter({ hasText: reason }).first(), `type ${nftType}`).toBeVisible();
    await expect(items.getByRole("button", { name: /^Move to chain/ }), `type ${nftType}`).toHaveCount(0);
  }

  // The item page of one of them: its "Game and chain" section says why.
  await page.goto(`/marketplace/storage?nftType=${NFT_TYPE.pse}`);
  await items.getByRole("listitem").first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/marketplace\/detail\?/);
  await expect(page.getByTestId("move-refused")).toHaveText(MOVE_REFUSALS.pse);
  await expect(page.getByRole("button", { name: "Move to chain" })).toHaveCount(0);

  // A spaceship can go, and a material stack too (whole or in part: its form has an amount): a button, and no reason.
  for (const nftType of [NFT_TYPE.spaceship, NFT_TYPE.material]) {
    await page.goto(`/marketplace/storage?nftType=${nftType}`);
    await expect(items.getByRole("button", { name: /^Move to chain/ }).first()).toBeVisible();
    await expect(items.getByTestId("move-refused")).toHaveCount(0);
  }
  await expect(items.getByRole("spinbutton", { name: /^Amount/ }).first()).toBeVisible();
});
