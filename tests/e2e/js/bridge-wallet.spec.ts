/**
 * Issue 14 acceptance, JavaScript on, a browser wallet: the same round trips as the managed wallet's, signed in the
 * wallet through the islands: 50 FIRE claimed to the chain and 20 moved back into the game, then an item moved to
 * the chain (minted there on its first claim) and back into the game, where it can be listed again.
 */
import type { Page } from "@playwright/test";
import { toFunctionSelector } from "viem";
import { expect, test } from "../accounts";
import { reloadUntil, submitBridge, unsubmittedClaim } from "../managed-chain";
import { APPROVE, sentSelectors } from "../wallet";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const CLAIM_TOKEN = toFunctionSelector("claimToken(address,bytes,uint8,bytes32,bytes32)");
const CLAIM_NFT = toFunctionSelector("claimNft(address,bytes,uint8,bytes32,bytes32)");
const SWAP_TOKEN = toFunctionSelector("swapTokenToGame(address,uint256,uint256)");
const SWAP_NFT = toFunctionSelector("swapNftToGame(address,uint256,uint256)");
const status = (page: Page) => page.getByTestId("bridge-status");

test("a browser wallet claims 50 FIRE to the chain and moves 20 back into the game", async ({ page, read, walletPlayer }) => {
  test.setTimeout(90_000);
  const { account, wallet } = await walletPlayer({ stock: { balances: { FIRE: 200 } }, chain: { BNB: 10 } });
  await page.goto("/game#bridge");
  await expect(page.getByTestId("balance-FIRE")).toHaveText("FIRE200 FIRE0 FIRE");

  const claim = await submitBridge(page, "claim", "0");
  await expect(claim.getByLabel("Amount")).toHaveAccessibleDescription("Enter an amount as a number above zero, like 50 or 12.5.");
  await submitBridge(page, "claim", "500");
  await expect(page.getByRole("alert").filter({ hasText: "Failed:" })).toHaveText(
    "Failed: Transaction failed. You do not have enough balance.",
  );
  expect(wallet.sent).toEqual([]);

  await submitBridge(page, "claim", "50");
  await expect(status(page)).toContainText("Confirmed: 50 FIRE claimed to your wallet.", { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([CLAIM_TOKEN]);
  expect(await read.balance("FIRE", account.wallet!)).toBe(50n * WEI);
  await expect(page.getByTestId("balance-FIRE")).toHaveText("FIRE150 FIRE50 FIRE");

  await submitBridge(page, "move", "20");
  await expect(status(page)).toContainText("Confirmed: 20 FIRE sent to the game", { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([CLAIM_TOKEN, APPROVE, SWAP_TOKEN]);
  await reloadUntil(page, (expect) => expect(page.getByTestId("balance-FIRE")).toHaveText("FIRE170 FIRE30 FIRE"));
  await reloadUntil(page, (expect) => expect(page.getByTestId("claim-row").first()).toContainText("50 FIRE · Claimed: on chain"));
});

test("a browser wallet moves an item to the chain and back into the game, then lists it", async ({ page, walletPlayer }) => {
  test.setTimeout(90_000);
  const { account, wallet } = await walletPlayer({ stock: { items: { 4: 1 } }, chain: { BNB: 10 } });
  const [item] = account.items;
  await page.goto(item.url);
  await page.getByRole("button", { name: "Move to chain" }).click();
  await expect(status(page)).toContainText(`Confirmed: Item #${item.tokenId} is in your wallet.`, { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([CLAIM_NFT]);
  await reloadUntil(page, (expect) => expect(page.getByRole("button", { name: "Move into the game" })).toBeVisible());
  // On chain it trades through the trading contract (issue 28), not the game's ledger.
  await expect(page.getByRole("form", { name: "Sell on chain" })).toBeVisible();
  await expect(page.getByRole("button", { name: "List for sale" })).toHaveCount(0);

  await page.getByRole("button", { name: "Move into the game" }).click();
  await expect(status(page)).toContainText("Confirmed: Item", { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([CLAIM_NFT, APPROVE, SWAP_NFT]);
  await reloadUntil(page, (expect) => expect(page.getByRole("button", { name: "List for sale" })).toBeVisible());
  await page.getByLabel("Price").fill("7");
  await page.getByLabel("Currency").selectOption("FIRE");
  await page.getByRole("button", { name: "List for sale" }).click();
  await expect(page.getByText("Listed for sale.")).toBeVisible();
  await expect(page.getByTestId("trade-status")).toHaveText("On sale for 7 FIRE");
});

test("a QUARK claim the wallet never submitted is submitted later from the game page, once", async ({
  page,
  baseURL,
  read,
  walletPlayer,
}) => {
  test.setTimeout(60_000);
  const { account, wallet } = await walletPlayer({ stock: { balances: { QUARK: 100 } }, chain: { BNB: 10 } });
  // The game signs a claim and the wallet never sends it: turned down, or the tab was closed.
  await unsubmittedClaim(page, baseURL!, "QUARK", "5");

  await page.goto("/game#bridge");
  await expect(page.getByTestId("balance-QUARK")).toHaveText("QUARK95 QUARK0 QUARK");
  await expect(page.getByTestId("claim-row").first()).toContainText("5 QUARK · Pending: submit it before");
  const waiting = page.getByRole("list", { name: "Claims waiting for your wallet" });
  await waiting.getByRole("button", { name: /^Submit from your wallet/ }).click();
  await expect(status(page)).toContainText("Confirmed: 5 QUARK claimed to your wallet.", { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([CLAIM_TOKEN]);
  expect(await read.balance("QUARK", account.wallet!)).toBe(5n * WEI);
  await reloadUntil(page, (expect) => expect(page.getByTestId("claim-row").first()).toContainText("5 QUARK · Claimed: on chain"));
  await expect(waiting).toHaveCount(0);
  await expect(page.getByTestId("balance-QUARK")).toHaveText("QUARK95 QUARK5 QUARK");
});
