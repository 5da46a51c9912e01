/**
 * Issue 28, JavaScript on, a browser wallet: part of a game stack of 50 Gold claimed to the chain through the item
 * page's island (claimItem1155), then part of that chain stack moved back into the game (setApprovalForAll for the
 * asset manager, then swapItem1155ToGame). An amount the stack does not hold is refused next to the field before
 * the wallet is asked for anything.
 */
import { toFunctionSelector } from "viem";
import { expect, test } from "../accounts";
import { reloadUntil } from "../managed-chain";
import { installTestWallet, APPROVE_ALL, sentSelectors } from "../wallet";

const CLAIM_ITEM1155 = toFunctionSelector("claimItem1155(address,bytes,uint8,bytes32,bytes32)");
const SWAP_ITEM1155 = toFunctionSelector("swapItem1155ToGame(address,uint256,uint256,uint256)");

test("a browser wallet moves 20 of a stack of 50 Gold to the chain, then 8 of those back into the game", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(90_000);
  const account = await createAccount({ wallet: "browser", stock: { stacks: [{ material: 2, amount: 50 }] }, chain: { BNB: 10 } });
  const [stack] = account.items;
  const wallet = await installTestWallet(page, { privateKey: account.key! });
  await signIn(page, account);
  await page.goto(stack!.url);
  const section = page;
  // The first click loads the island; a stack's move then waits for its amount.
  await section.getByRole("button", { name: "Move to chain" }).click();
  const amount = section.getByLabel(/^Amount/);
  await expect(amount).toHaveValue("50");
  await amount.fill("51");
  await section.getByRole("button", { name: "Move to chain" }).click();
  await expect(amount).toHaveAccessibleDescription("Enter a whole number from 1 to 50.");
  expect(wallet.sent).toEqual([]);

  await amount.fill("20");
  await section.getByRole("button", { name: "Move to chain" }).click();
  await expect(page.getByTestId("bridge-status")).toContainText("Confirmed: The 20 you moved are in your wallet.", { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([CLAIM_ITEM1155]);
  await reloadUntil(page, (expect) => expect(page.getByRole("heading", { level: 2, name: `Gold ×30 #${stack!.tokenId}` })).toBeVisible());

  await page.goto("/marketplace/storage?nftType=8");
  const onChain = page.getByRole("link", { name: "Gold ×20 #8002", exact: true });
  await reloadUntil(page, (expect) => expect(onChain).toBeVisible());
  await onChain.click();
  // The wallet connected before: the island is on the page from the start, its amount field with it. The chain stack's
  // trade forms have amounts too: this one is the "Game and chain" section's.
  const move = page.getByRole("region", { name: "Game and chain" });
  await expect(move.getByLabel(/^Amount/)).toHaveValue("20");
  await move.getByLabel(/^Amount/).fill("8");
  await move.getByRole("button", { name: "Move into the game" }).click();
  await expect(page.getByTestId("bridge-status")).toContainText("Confirmed: 8 Gold are on their way into the game", { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([CLAIM_ITEM1155, APPROVE_ALL, SWAP_ITEM1155]);

  await page.goto("/marketplace/storage?nftType=8");
  await reloadUntil(page, async (expect) => {
    await expect(page.getByRole("link", { name: `Gold ×38 #${stack!.tokenId}`, exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Gold ×12 #8002", exact: true })).toBeVisible();
  });
});
