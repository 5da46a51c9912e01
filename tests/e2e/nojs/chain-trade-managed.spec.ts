/**
 * Issue 28 (part 2) acceptance, JavaScript off, managed wallets: a hero card held on chain is listed on the trading
 * contract from its page (the approval first, then a review of the exact fee, then the SSO signs the listing), bought
 * by another player through quickSale with every balance exact to the wei, cancelled one by one or all at once, and
 * sent into another player's game inventory; a loot box held on chain is listed and cancelled the same way, then
 * transferred to another wallet. Each executor action is followed on its status page.
 */
import type { Page } from "@playwright/test";
import { shortAddress } from "~core/address";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test } from "../accounts";
import { mintItems } from "../chain-funds";
import { approveTrading, openHeld } from "../chain-trade-forms";
import { reloadUntil, reviewedFee, waitForOutcome } from "../managed-chain";
import { formatPrice, WEI_PER_TOKEN } from "~core/money";
import { encodeItem } from "~core/item-data";

const WEI = WEI_PER_TOKEN;
const heroCard = (rarity: number) => encodeItem.card({ rarity, camp: 1, identity: 1, profession: 1, level: 1 });
const detail = (tokenId: bigint) => `/marketplace/detail?nftType=0&tokenId=${tokenId}`;

/** The card's page once the indexer has seen it in the wallet. */
const openCard = (page: Page, tokenId: bigint) => openHeld(page, detail(tokenId));

/** Fills "Sell on chain", reviews the exact amounts and lists: the page says the item is on sale on chain. */
async function listOnChain(page: Page, price: string, review: { fee: string; receive: string } | null = null) {
  const sell = page.getByRole("form", { name: "Sell on chain" });
  await sell.getByLabel("Price").fill(price);
  await sell.getByLabel("Currency").selectOption("FIRE");
  await sell.getByLabel("Listing lasts (days)").fill("3");
  await sell.getByRole("button", { name: "Review the listing" }).click();
  const reviewed = page.getByRole("form", { name: "Review the listing" });
  if (review) {
    await expect(reviewed.getByTestId("review-price")).toHaveText(`${price} FIRE`);
    await expect(reviewed.getByTestId("review-fee")).toHaveText(review.fee);
    await expect(reviewed.getByTestId("review-receive")).toHaveText(review.receive);
  }
  await reviewed.getByRole("button", { name: "List on chain" }).click();
  await expect(page.getByTestId("trade-status")).toHaveText(`On sale for ${price} FIRE on chain`);
}

const gridLink = (page: Page, tokenId: bigint) => page.locator(`a[href*="tokenId=${tokenId}&back"]`);

test("a managed seller lists a hero card on chain for FIRE and a managed buyer buys it: every balance exact to the wei", async ({
  page,
  createAccount,
  player,
  signedInPage,
  read,
}) => {
  test.setTimeout(180_000);
  const seller = await player({ stock: {}, chain: { BNB: 1 } });
  const buyer = await createAccount({ stock: {}, chain: { BNB: 1, FIRE: 100 } });
  const late = await createAccount({ stock: {}, chain: { BNB: 1, FIRE: 20 } });
  const poor = await createAccount({ stock: {}, chain: { BNB: 1, FIRE: 5 } });
  const [tokenId] = await mintItems(seller.wallet!, [heroCard(3)]);
  await openCard(page, tokenId!);
  await expect(page.getByTestId("fee-rule")).toHaveText("2.5 % fee; you receive the price − the fee.");

  // A price that is not one is refused next to its field, before anything is approved or signed.
  const sell = page.getByRole("form", { name: "Sell on chain" });
  await sell.getByLabel("Price").fill("ten");
  await sell.getByRole("button", { name: "Approve the trading contract" }).click();
  await expect(page.getByRole("form", { name: "Sell on chain" }).getByLabel("Price")).toHaveAccessibleDescription(
    "Enter a price as a decimal number, like 12.5",
  );
  expect(await read.sent(seller.wallet!)).toBe(0);

  await approveTrading(page);
  await listOnChain(page, "10", { fee: "0.25 FIRE (2.5 %)", receive: "9.75 FIRE" });
  await page.goto("/marketplace/storage?nftType=0");
  const listed = page.getByRole("list", { name: "My items" }).getByRole("listitem").filter({ hasText: "10 FIRE" });
  await expect(listed.getByText("On chain", { exact: true })).toBeVisible();
  await page.goto("/marketplace/market?nftType=0&venue=chain");
  await reloadUntil(page, (quick) => quick(gridLink(page, tokenId!)).toBeVisible());

  // Another player opens the confirmation, but buys only after the first buyer.
  const latePage = await signedInPage(late);
  await latePage.goto(detail(tokenId!));
  await latePage.getByRole("button", { name: "Buy" }).click();
  await expect(latePage.getByRole("form", { name: "Confirm the purchase" })).toBeVisible();
  await expect(latePage.getByTestId("confirm-short")).toHaveCount(0);

  // Too little FIRE on chain: said so, and nothing to press that could only fail.
  const poorPage = await signedInPage(poor);
  await poorPage.goto(detail(tokenId!));
  await poorPage.getByRole("button", { name: "Buy" }).click();
  const poorConfirm = poorPage.getByRole("form", { name: "Confirm the purchase" });
  await expect(poorConfirm.getByTestId("confirm-short")).toHaveText(
    "Your FIRE on chain is less than the price: add FIRE to your wallet to buy this.",
  );
  await expect(poorConfirm.getByRole("button", { name: "Confirm purchase" })).toBeDisabled();

  const buyerPage = await signedInPage(buyer);
  await buyerPage.goto(detail(tokenId!));
  await expect(buyerPage.getByTestId("trade-status")).toHaveText("On sale for 10 FIRE on chain");
  await buyerPage.getByRole("button", { name: "Buy" }).click();
  const confirm = buyerPage.getByRole("form", { name: "Confirm the purchase" });
  await expect(confirm.getByTestId("confirm-price")).toHaveText("10 FIRE");
  await expect(confirm.getByTestId("confirm-fee")).toHaveText("0.25 FIRE (2.5 %), included in the price");
  await expect(confirm.getByTestId("confirm-seller")).toHaveText(seller.wallet!);
  await expect(confirm.getByTestId("confirm-balance")).toHaveText("100 FIRE");
  await confirm.getByRole("button", { name: "Confirm purchase" }).click();
  await waitForOutcome(buyerPage);
  await expect(buyerPage).toHaveTitle(`Buy item #${tokenId} | Spark Era`);

  expect(await read.balance("FIRE", seller.wallet!)).toBe(975n * (WEI / 100n));
  expect(await read.balance("FIRE", buyer.wallet!)).toBe(90n * WEI);
  expect(await read.transferred("FIRE", buyer.wallet!, read.treasury)).toBe(25n * (WEI / 100n));
  expect(await read.cardOwner(tokenId!)).toBe(buyer.wallet!);

  // The late buyer's confirmation names a listing that is filled now: the executor's words, nothing sent.
  await latePage.getByRole("button", { name: "Confirm purchase" }).click();
  await expect(latePage.getByRole("alert")).toHaveText("This listing has already been bought.");
  expect(await read.sent(late.wallet!)).toBe(0);

  await reloadUntil(page, (quick) => quick(gridLink(page, tokenId!)).toHaveCount(0));
});

test("without BNB, a managed seller lists a card on chain and a managed buyer buys it: each network fee reviewed in FIRE and taken to the wei", async ({
  page,
  createAccount,
  player,
  signedInPage,
  read,
}) => {
  test.setTimeout(180_000);
  const seller = await player({ stock: {}, chain: { FIRE: 10 } });
  const buyer = await createAccount({ stock: {}, chain: { FIRE: 100 } });
  const [tokenId] = await mintItems(seller.wallet!, [heroCard(2)]);
  await openCard(page, tokenId!);

  // The approval is a transaction: its fee first, in the one token the seller holds.
  const sell = page.getByRole("form", { name: "Sell on chain" });
  await sell.getByLabel("Price").fill("20");
  await sell.getByRole("button", { name: "Approve the trading contract" }).click();
  const approvalFee = await reviewedFee(page, "FIRE");
  expect(await read.sent(seller.wallet!)).toBe(0);
  await page.getByRole("button", { name: "Confirm and pay the fee" }).click();
  await waitForOutcome(page);
  await page.getByRole("link", { name: "Back to the item" }).click();
  expect(10n * WEI - (await read.balance("FIRE", seller.wallet!))).toBe(approvalFee);
  // The listing itself is a signature, which costs no gas.
  await listOnChain(page, "20", { fee: "0.5 FIRE (2.5 %)", receive: "19.5 FIRE" });

  const buyerPage = await signedInPage(buyer);
  await buyerPage.goto(detail(tokenId!));
  await buyerPage.getByRole("button", { name: "Buy" }).click();
  await buyerPage.getByRole("form", { name: "Confirm the purchase" }).getByRole("button", { name: "Confirm purchase" }).click();
  const purchaseFee = await reviewedFee(buyerPage, "FIRE");
  await expect(buyerPage.getByTestId("fee-total")).toHaveText(`${formatPrice(20n * WEI + purchaseFee, null)} FIRE`);
  await buyerPage.getByRole("button", { name: "Confirm and pay the fee" }).click();
  await waitForOutcome(buyerPage);

  expect(await read.cardOwner(tokenId!)).toBe(buyer.wallet!);
  expect(await read.balance("FIRE", buyer.wallet!)).toBe(80n * WEI - purchaseFee);
  expect(await read.balance("FIRE", seller.wallet!)).toBe(10n * WEI - approvalFee + 195n * (WEI / 10n));
  expect(await read.bnb(seller.wallet!)).toBe(0n);
  expect(await read.bnb(buyer.wallet!)).toBe(0n);
});

test("a managed seller cancels one chain listing, then all of them at once", async ({ page, player }) => {
  test.setTimeout(180_000);
  const seller = await player({ stock: {}, chain: { BNB: 1 } });
  const [first, second] = await mintItems(seller.wallet!, [heroCard(1), heroCard(2)]);
  await openCard(page, first!);
  await approveTrading(page);
  await listOnChain(page, "3");
  await openCard(page, second!);
  await listOnChain(page, "4");

  await page.goto(detail(first!));
  await page.getByRole("button", { name: "Cancel listing" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(`Cancel the listing of item #${first} | Spark Era`);
  await page.getByRole("link", { name: "Back to the item" }).click();
  await reloadUntil(page, (quick) => quick(page.getByTestId("trade-status")).toHaveText("Not for sale"));
  await expect(page.getByRole("form", { name: "Sell on chain" })).toBeVisible();

  await page.goto(detail(second!));
  await expect(page.getByTestId("trade-status")).toHaveText("On sale for 4 FIRE on chain");
  await page.getByRole("button", { name: "Cancel all my chain listings" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Cancel all your chain listings | Spark Era");
  await page.getByRole("link", { name: "Back to the item" }).click();
  await reloadUntil(page, (quick) => quick(page.getByTestId("trade-status")).toHaveText("Not for sale"));
});

test("a card sent to a player shows in their storage as a game item; a wallet with no profile is refused", async ({
  page,
  createAccount,
  signIn,
  signedInPage,
  read,
}) => {
  test.setTimeout(120_000);
  const sender = await createAccount({ stock: {}, chain: { BNB: 1 } });
  const player = await createAccount({ stock: {} });
  const [tokenId] = await mintItems(sender.wallet!, [heroCard(2)]);
  await signIn(page, sender);
  await openCard(page, tokenId!);

  const send = () => page.getByRole("form", { name: "Send to a player" });
  const field = () => send().getByLabel("Player's wallet address");
  await field().fill("0x1234");
  await send().getByRole("button", { name: "Send" }).click();
  await expect(field()).toHaveAccessibleDescription(/^Enter a valid wallet address \(0x…, checksummed\)/);
  await expect(field()).toHaveValue("0x1234");

  const stranger = privateKeyToAccount(generatePrivateKey()).address;
  await field().fill(stranger);
  await send().getByRole("button", { name: "Send" }).click();
  await expect(field()).toHaveAccessibleDescription(
    /^This wallet belongs to no player with a game profile: send the item to a player's bound wallet\./,
  );
  expect(await read.sent(sender.wallet!)).toBe(0);

  await field().fill(player.wallet!);
  await send().getByRole("button", { name: "Send" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(`Send item #${tokenId} to the game inventory of ${player.wallet} | Spark Era`);

  const playerPage = await signedInPage(player);
  await playerPage.goto("/marketplace/storage?nftType=0");
  const card = playerPage
    .getByRole("list", { name: "My items" })
    .getByRole("listitem")
    .filter({ has: gridLink(playerPage, tokenId!) });
  await reloadUntil(playerPage, (quick) => quick(card.getByRole("button", { name: /^Move to chain: / })).toBeVisible());
});

test("chain form posts that cannot be right are refused with words and a 4xx, nothing sent", async ({
  page,
  baseURL,
  createAccount,
  signIn,
  read,
}) => {
  const owner = await createAccount({ stock: {}, chain: { BNB: 1 } });
  const browserUser = await createAccount({ wallet: "browser", stock: {} });
  const [tokenId] = await mintItems(owner.wallet!, [heroCard(1)]);
  await signIn(page, owner);
  // Once the market's indexer has seen the card in the wallet, its answers are about the item, not a missing one.
  await openCard(page, tokenId!);
  /** Posts `form` and expects its refusal: the status, and the words in the page. */
  const refused = async (form: Record<string, string>, status: number, words: string) => {
    const response = await page.request.post(detail(tokenId!), {
      form: { idempotencyKey: "key-of-this-test-1", ...form },
      headers: { Origin: baseURL! },
    });
    expect({ status: response.status(), body: await response.text() }).toMatchObject({ status, body: expect.stringContaining(words) });
  };

  await refused(
    { intent: "chain-sell", price: "5", currency: "FIRE", days: "181" },
    400,
    "Enter how many days the listing lasts, a whole number from 1 to 180",
  );
  await refused({ intent: "chain-sell", price: "0", currency: "DOGE", days: "3" }, 400, "Choose a currency");
  await refused({ intent: "chain-buy", order: '{"tokenId":"1"}' }, 400, "This form is out of date. Reload the page and try again.");
  await refused({ intent: "chain-cancel" }, 409, "This item is not on sale any more.");
  await refused({ intent: "chain-transfer", to: owner.wallet! }, 400, "The address cannot be the same as the address of the sender");
  await refused({ intent: "chain-send", account: "0x12" }, 400, "Enter a valid wallet address");
  await refused({ intent: "chain-confirm-buy" }, 409, "This item is not on sale any more.");
  expect(await read.sent(owner.wallet!)).toBe(0);

  // A browser wallet's post of a managed wallet's form: told to use its wallet.
  await signIn(page, browserUser);
  await refused({ intent: "chain-cancel-all" }, 403, "With a browser wallet, trade on chain with your wallet");
});

test("a managed seller lists a loot box held on chain and cancels it, then transfers it to another wallet: the page names its new owner", async ({
  page,
  player,
  read,
}) => {
  test.setTimeout(120_000);
  const seller = await player({ stock: {}, chain: { BNB: 1, boxes: { 1: 1 } } });
  const [box] = await read.boxes(seller.wallet!);
  const url = `/marketplace/detail?nftType=6&tokenId=${box!.id}`;
  await openHeld(page, url);
  // A loot box goes to a wallet, never into a game inventory: the game has no loot boxes.
  await expect(page.getByRole("form", { name: "Send to a player" })).toHaveCount(0);
  await approveTrading(page);
  await listOnChain(page, "2", { fee: "0.05 FIRE (2.5 %)", receive: "1.95 FIRE" });
  await expect(page.getByRole("form", { name: "Transfer to a wallet" })).toContainText(
    "Its listing on chain ends: the buyer's order no longer finds it in your wallet.",
  );
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("form", { name: "Transfer to a wallet" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`box-transfer-listed-${width}.png`) });
  }
  await page.getByRole("button", { name: "Cancel listing" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(`Cancel the listing of item #${box!.id} | Spark Era`);
  await page.getByRole("link", { name: "Back to the item" }).click();
  await reloadUntil(page, (quick) => quick(page.getByTestId("trade-status")).toHaveText("Not for sale"));

  const friend = privateKeyToAccount(generatePrivateKey()).address;
  const transfer = page.getByRole("form", { name: "Transfer to a wallet" });
  await expect(transfer).not.toContainText("Its listing on chain ends");
  await transfer.getByLabel("Recipient address").fill(friend);
  await transfer.getByRole("button", { name: "Transfer" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle(`Send loot box #${box!.id} to ${friend} | Spark Era`);
  expect((await read.boxes(friend)).map(({ id }) => id)).toEqual([box!.id]);
  await page.getByRole("link", { name: "Back to the item" }).click();
  const owner = page.locator("dt", { hasText: "Owner" }).locator("+ dd");
  // An unbound wallet is named by its short form, the whole address in its title.
  await reloadUntil(page, (quick) => quick(owner).toHaveText(shortAddress(friend)));
  await expect(owner.locator("[title]")).toHaveAttribute("title", friend);
  await expect(page.getByRole("form", { name: "Transfer to a wallet" })).toHaveCount(0);
});
