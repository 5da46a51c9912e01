/**
 * Issue 14 acceptance, JavaScript off, a managed wallet: 50 FIRE claimed from the game to the chain (the game balance
 * drops at once, the wallet's FIRE rises once mined, the claim shows as claimed), FIRE moved back into the game,
 * and an item claimed to the chain (minted there on its first claim), shown on chain, moved back into the game and
 * listed again. Each move is followed on its status page.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { MOVE_REFUSALS } from "~core/item-moves";
import { formatPrice, parseTokenAmount, WEI_PER_TOKEN } from "~core/money";
import { reloadUntil, submitBridge, unsubmittedClaim, waitForOutcome } from "../managed-chain";

const WEI = WEI_PER_TOKEN;
const balanceRow = (page: Page, currency: string) => page.getByTestId(`balance-${currency}`);
/** The network fee the review page shows, in wei. */
const shownFee = async (page: Page) =>
  parseTokenAmount((await page.getByTestId("network-fee").textContent())!.replace(/ FIRE$/, "").replaceAll(",", ""))!;

test("the game and wallet balances show all four tokens: sales and rebates credit USDT and BNB in the game too", async ({
  page,
  player,
}) => {
  await player({ stock: { balances: { FIRE: 200, USDT: 12, BNB: 3 } }, chain: { BNB: 1, USDT: 5 } });
  await page.goto("/game#bridge");
  await expect(balanceRow(page, "FIRE")).toHaveText("FIRE200 FIRE0 FIRE");
  await expect(balanceRow(page, "QUARK")).toHaveText("QUARK0 QUARK0 QUARK");
  await expect(balanceRow(page, "USDT")).toHaveText("USDT12 USDT5 USDT");
  await expect(balanceRow(page, "BNB")).toHaveText("BNB3 BNB1 BNB");
});

test("a managed wallet claims 50 FIRE to the chain and moves 20 back into the game, with refusals next to the field", async ({
  page,
  read,
  player,
}) => {
  test.setTimeout(90_000);
  const account = await player({ stock: { balances: { FIRE: 200 } }, chain: { BNB: 1 } });
  const wallet = account.wallet!;
  await page.goto("/game#bridge");
  await expect(balanceRow(page, "FIRE")).toHaveText("FIRE200 FIRE0 FIRE");

  const claimForm = await submitBridge(page, "claim", "ten");
  await expect(claimForm.getByLabel("Amount")).toHaveAccessibleDescription(/^Enter an amount as a number above zero, like 50 or 12\.5\./);
  await expect(claimForm.getByLabel("Amount")).toHaveValue("ten");
  await submitBridge(page, "claim", "1000");
  await expect(claimForm.getByRole("alert")).toHaveText("Transaction failed. You do not have enough balance.");
  expect(await read.sent(wallet)).toBe(0);

  await submitBridge(page, "claim", "50");
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Claim 50 FIRE to the chain | Spark Era");
  expect(await read.balance("FIRE", wallet)).toBe(50n * WEI);
  await page.getByRole("link", { name: "Back to the game" }).click();
  await expect(balanceRow(page, "FIRE")).toHaveText("FIRE150 FIRE50 FIRE");
  await reloadUntil(page, (expect) => expect(page.getByTestId("claim-row").first()).toContainText("50 FIRE · Claimed: on chain"));

  await submitBridge(page, "move", "20");
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Move 20 FIRE into the game | Spark Era");
  expect(await read.balance("FIRE", wallet)).toBe(30n * WEI);
  await page.getByRole("link", { name: "Back to the game" }).click();
  await reloadUntil(page, (expect) => expect(balanceRow(page, "FIRE")).toHaveText("FIRE170 FIRE30 FIRE"));
});

test("a managed wallet moves an item to the chain, where it leaves the market, then back into the game, and lists it again", async ({
  page,
  player,
}) => {
  test.setTimeout(90_000);
  const account = await player({ stock: { items: { 4: 1 } }, chain: { BNB: 1 } });
  const [item] = account.items;
  await page.goto(item.url);
  await expect(page.getByLabel("Price")).toBeVisible();
  await page.getByRole("button", { name: "Move to chain" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(`Claim item #${item.tokenId} to the chain | Spark Era`);
  await page.getByRole("link", { name: "Back" }).first().click();
  await expect(page).toHaveURL(new RegExp(`tokenId=${item.tokenId}`));
  await reloadUntil(page, (expect) => expect(page.getByRole("button", { name: "Move into the game" })).toBeVisible());
  // On chain it trades through the trading contract (issue 28), not the game's ledger.
  await expect(page.getByRole("form", { name: "Sell on chain" })).toBeVisible();
  await expect(page.getByRole("button", { name: "List for sale" })).toHaveCount(0);

  await page.getByRole("button", { name: "Move into the game" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(`Move item #${item.tokenId} into the game | Spark Era`);
  await page.getByRole("link", { name: "Back" }).first().click();
  await reloadUntil(page, (expect) => expect(page.getByRole("button", { name: "List for sale" })).toBeVisible());
  await page.getByLabel("Price").fill("7");
  await page.getByLabel("Currency").selectOption("FIRE");
  await page.getByRole("button", { name: "List for sale" }).click();
  await expect(page.getByTestId("trade-status")).toHaveText("On sale for 7 FIRE");
});

test("a managed wallet moves an item to the chain from its storage, and comes back to it", async ({ page, player }) => {
  test.setTimeout(60_000);
  const account = await player({ stock: { items: { 7: 1 } }, chain: { BNB: 1 } });
  const [item] = account.items;
  await page.goto("/marketplace/storage?nftType=7");
  await page.getByRole("button", { name: /^Move to chain: / }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(`Claim item #${item.tokenId} to the chain | Spark Era`);
  await page.getByRole("link", { name: "Back" }).first().click();
  await expect(page).toHaveURL(/\/marketplace\/storage\?/);
  await reloadUntil(page, (expect) => expect(page.getByRole("button", { name: /^Move into the game: / })).toBeVisible());
});

test("a managed wallet without BNB moves FIRE to the chain and back: each network fee reviewed, paid in FIRE to the wei, and its BNB stays 0", async ({
  page,
  read,
  player,
}) => {
  test.setTimeout(90_000);
  const account = await player({ stock: { balances: { FIRE: 80 } } });
  const wallet = account.wallet!;
  await page.goto("/game#bridge");
  await expect(page.getByTestId("gas-notice")).toContainText("the site pays them, for a small fee");

  // To the chain: the claim brings the FIRE that pays its fee.
  await submitBridge(page, "claim", "50");
  await expect(page.getByRole("heading", { name: "Review the network fee" })).toBeVisible();
  await expect(page.getByRole("list", { name: "The action's steps" })).toHaveText("Claim 50 FIRE to the chain");
  const claimFee = await shownFee(page);
  expect(await read.sent(wallet)).toBe(0);
  await page.getByRole("button", { name: "Confirm and pay the fee" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Claim 50 FIRE to the chain | Spark Era");
  expect(await read.balance("FIRE", wallet)).toBe(50n * WEI - claimFee);
  expect(await read.bnb(wallet)).toBe(0n);

  // And back into the game: the fee is paid first, from the FIRE the wallet holds.
  await page.goto("/game#bridge");
  await submitBridge(page, "move", "20");
  await expect(page.getByRole("heading", { name: "Review the network fee" })).toBeVisible();
  const moveFee = await shownFee(page);
  await expect(page.getByTestId("fee-total")).toHaveText(`${formatPrice(20n * WEI + moveFee, null)} FIRE`);
  await page.getByRole("button", { name: "Confirm and pay the fee" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Move 20 FIRE into the game | Spark Era");
  expect(await read.balance("FIRE", wallet)).toBe(30n * WEI - claimFee - moveFee);
  expect(await read.bnb(wallet)).toBe(0n);
  await page.getByRole("link", { name: "Back to the game" }).click();
  await reloadUntil(page, (expect) => expect(balanceRow(page, "FIRE")).toContainText("FIRE50 FIRE"));
});

test("a loot box on the chain is not offered a move into the game, and a forged move of one is refused with a 400", async ({
  page,
  baseURL,
  read,
  player,
}) => {
  const account = await player({ stock: {}, chain: { BNB: 1, boxes: { 4: 1 } } });
  await page.goto("/marketplace/storage?nftType=6");
  const box = page.locator('a[href*="/marketplace/detail?"][href*="nftType=6"]').first();
  await reloadUntil(page, (expect) => expect(box).toBeVisible());
  const tokenId = /tokenId=(\d+)/.exec((await box.getAttribute("href"))!)![1]!;
  await expect(page.getByRole("button", { name: /^Move into the game: / })).toHaveCount(0);
  await box.click();
  await expect(page.getByRole("button", { name: "Move into the game" })).toHaveCount(0);
  await expect(page.getByTestId("move-refused")).toHaveText(MOVE_REFUSALS.boxStaysOnChain);

  // The asset manager would take the card with the box's token id instead: the form is refused before any action.
  const sentBefore = await read.sent(account.wallet!);
  const response = await page.request.post("/bridge", {
    form: { intent: "swap-item", nftType: "6", tokenId, idempotencyKey: "forged-swap-of-a-box", back: "/game" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain(MOVE_REFUSALS.boxStaysOnChain);
  expect(await read.sent(account.wallet!)).toBe(sentBefore);

  // The refusal page has no loader of its own that could replace a refusal; opened directly, it says where moves are.
  await page.goto("/bridge");
  await expect(page.getByRole("heading", { level: 1, name: "Game and chain" })).toBeVisible();
  await expect(page.getByRole("link", { name: "game page" })).toHaveAttribute("href", "/game#bridge");
});

test("a managed wallet submits a pending claim from its history, once, and a claimed one offers nothing more", async ({
  page,
  baseURL,
  read,
  player,
}) => {
  test.setTimeout(60_000);
  const account = await player({ stock: { balances: { QUARK: 100 } }, chain: { BNB: 1 } });
  // A claim the game signed whose run never reached the chain.
  await unsubmittedClaim(page, baseURL!, "QUARK", "5");

  await page.goto("/game#bridge");
  const row = page.getByTestId("claim-row").first();
  await expect(row).toContainText("5 QUARK · Pending: submit it before");
  await row.getByRole("button", { name: /^Submit it now/ }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Claim 5 QUARK to the chain | Spark Era");
  expect(await read.balance("QUARK", account.wallet!)).toBe(5n * WEI);
  await page.getByRole("link", { name: "Back to the game" }).click();
  await reloadUntil(page, (expect) => expect(page.getByTestId("claim-row").first()).toContainText("5 QUARK · Claimed: on chain"));
  await expect(page.getByRole("button", { name: /^Submit it now/ })).toHaveCount(0);
  await expect(balanceRow(page, "QUARK")).toHaveText("QUARK95 QUARK5 QUARK");
});
