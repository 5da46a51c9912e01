/**
 * Issue 28, JavaScript on, browser wallets trading a chain-held card through the trading contract from the item page
 * (app/features/market/chain-trade.client.tsx): a seller lists it (the collection approved once, then the listing
 * signed and stored by the market) and a buyer buys it with quickSale, balances exact to the wei; two buyers racing
 * one listing, the loser told in the product's words; a cancel closing the listing.
 */
import type { Page } from "@playwright/test";
import { createPublicClient, http, parseEther, toFunctionSelector, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { sparkCardAbi } from "../../../contracts/generated/abi";
import { readDeployment } from "../../../contracts/deployment";
import { encodeItem } from "~core/item-data";
import { NFT_TYPE } from "~core/nft";
import { SEEDED_FEE_BPS, TRADING_ERROR_MESSAGES, tradingFee } from "~core/trading";
import { expect, test, type PlayerFixtures } from "../accounts";
import { mintItems } from "../chain-funds";
import { reloadUntil } from "../managed-chain";
import { e2eDataDir } from "../stock";
import { E2E_RPC_URL, type TestWallet, APPROVE, APPROVE_ALL, QUICK_SALE, TRANSFER_NFT, sentSelectors } from "../wallet";

const CANCEL = toFunctionSelector("cancel((address,address,uint8,uint256,uint256,address,uint256,uint256,uint256,uint256)[])");
const status = (page: Page) => page.getByTestId("chain-trade-status");

const client = createPublicClient({ transport: http(E2E_RPC_URL) });
function card() {
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`)!;
  return deployment.contracts.card;
}
const ownerOf = async (tokenId: bigint) =>
  client.readContract({ address: card(), abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] });
const bnb = (wallet: Address) => client.getBalance({ address: wallet });
/** A browser-wallet seller holding a fresh card on chain, on its item page with the injected wallet. */
async function sellerWithCard(page: Page, walletPlayer: PlayerFixtures["walletPlayer"]) {
  const { account: seller, wallet } = await walletPlayer({ stock: {}, chain: { BNB: 1 }, tag: "chain-seller" });
  const [tokenId] = await mintItems(seller.wallet!, [encodeItem.card({ rarity: 3, camp: 1, identity: 2, profession: 1, level: 2 })]);
  const url = `/marketplace/detail?nftType=${NFT_TYPE.card}&tokenId=${tokenId}`;
  await page.goto(url);
  return { seller, wallet, tokenId: tokenId!, url };
}

/**
 * Lists the page's card on chain from the seller's wallet. The fee and the proceeds are on screen before anything is
 * signed: the wallet holds its first transaction while `review` looks at them.
 */
async function listOnChain(page: Page, wallet: TestWallet, price: string, currency: string, review?: () => Promise<void>) {
  const sell = page.getByRole("form", { name: "Sell on chain" });
  await reloadUntil(page, (expect) => expect(sell).toBeVisible());
  await sell.getByLabel("Price").fill(price);
  await sell.getByLabel("Currency").selectOption(currency);
  const held = wallet.hold();
  try {
    await sell.getByRole("button").click();
    await expect(page.getByTestId("chain-sell-review")).toBeVisible();
    await review?.();
  } finally {
    held.release();
  }
  await expect(page.getByText("Listed on chain.")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("trade-status")).toHaveText(`On sale for ${price} ${currency} on chain`);
}

/** Screenshots of what `target` shows at 390 and 1280 px. */
async function screenshots(page: Page, name: string, target: ReturnType<Page["getByTestId"]>) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: width === 390 });
  }
}

test("a browser wallet lists its chain card and another buys it: the money exact to the wei, the card theirs, the listing gone", async ({
  page,
  createAccount,
  read,
  walletPage,
  walletPlayer,
}) => {
  test.setTimeout(120_000);
  const { seller, wallet, tokenId, url } = await sellerWithCard(page, walletPlayer);
  await listOnChain(page, wallet, "12.5", "FIRE", async () => {
    const review = page.getByTestId("chain-sell-review");
    await expect(review).toHaveText("Price12.5 FIREMarket fee (2.5 %)0.3125 FIREYou receive12.1875 FIRE");
    await expect(status(page)).toContainText("Let the market move your items: confirm in your wallet…");
    await screenshots(page, "chain-sell", review);
  });
  // The collection approved once; the listing itself is a signature, not a transaction.
  expect(sentSelectors(wallet)).toEqual([APPROVE_ALL]);

  const buyer = await createAccount({ wallet: "browser", stock: {}, chain: { BNB: 1, FIRE: 20 }, tag: "chain-buyer" });
  const { page: buyerPage, wallet: buyerWallet } = await walletPage(buyer);
  await buyerPage.goto(url);
  await expect(buyerPage.getByTestId("trade-status")).toHaveText("On sale for 12.5 FIRE on chain");
  await buyerPage.getByRole("button", { name: "Buy" }).click();
  const confirm = buyerPage.getByRole("form", { name: "Confirm the purchase" });
  await expect(confirm).toBeVisible();
  await screenshots(buyerPage, "chain-buy", confirm);
  const price = parseEther("12.5");
  const before = { seller: await read.balance("FIRE", seller.wallet!), buyer: await read.balance("FIRE", buyer.wallet!) };
  const buying = buyerWallet.hold();
  await confirm.getByRole("button", { name: "Confirm purchase" }).click();
  await expect(status(buyerPage)).toContainText("Approve the payment: confirm in your wallet…");
  await screenshots(buyerPage, "chain-buying", status(buyerPage));
  buying.release();
  // The indexer closes the listing; the page reads itself again until it shows that.
  await expect(buyerPage.getByTestId("trade-status")).toHaveText("Not for sale", { timeout: 20_000 });
  expect(sentSelectors(buyerWallet)).toEqual([APPROVE, QUICK_SALE]);
  await expect(buyerPage.getByText("You own this item.")).toBeVisible();

  expect(await ownerOf(tokenId)).toBe(buyer.wallet);
  expect(await read.balance("FIRE", buyer.wallet!)).toBe(before.buyer - price);
  expect(await read.balance("FIRE", seller.wallet!)).toBe(before.seller + price - tradingFee(price, SEEDED_FEE_BPS));
  await reloadUntil(page, (expect) => expect(page.getByTestId("trade-status")).toHaveText("Not for sale"));
  await expect(page.getByText("You own this item.")).toHaveCount(0);
});

test("two browser wallets buy the same chain listing at once: one gets it, the other reads why not", async ({
  page,
  createAccount,
  walletPage,
  walletPlayer,
}) => {
  test.setTimeout(120_000);
  const { seller, wallet: sellerWallet, tokenId, url } = await sellerWithCard(page, walletPlayer);
  await listOnChain(page, sellerWallet, "0.05", "BNB");

  const racers = await Promise.all(
    [1, 2].map(async (n) => {
      const account = await createAccount({ wallet: "browser", stock: {}, chain: { BNB: 1 }, tag: `chain-racer-${n}` });
      const { page: racerPage, wallet } = await walletPage(account);
      await racerPage.goto(url);
      await racerPage.getByRole("button", { name: "Buy" }).click();
      await expect(racerPage.getByRole("form", { name: "Confirm the purchase" })).toBeVisible();
      return { page: racerPage, account, wallet };
    }),
  );
  const start = await Promise.all(racers.map((racer) => bnb(racer.account.wallet!)));
  const sellerStart = await bnb(seller.wallet!);
  // Both wallets hold their transaction until both buyers have clicked: then both go to the chain at once.
  const holds = racers.map((racer) => racer.wallet.hold());
  await Promise.all(racers.map((racer) => racer.page.getByRole("button", { name: "Confirm purchase" }).click()));
  await Promise.all(racers.map((racer) => expect(status(racer.page)).toContainText("Buy the item: confirm in your wallet…")));
  for (const hold of holds) hold.release();

  const outcomes = await Promise.all(
    racers.map(async (racer) => {
      const failed = racer.page.getByRole("alert").filter({ hasText: "Failed:" });
      const bought = racer.page.getByText("You own this item.");
      await expect(failed.or(bought)).toBeVisible({ timeout: 30_000 });
      return (await failed.count()) > 0 ? "failed" : "bought";
    }),
  );
  expect([...outcomes].sort()).toEqual(["bought", "failed"]);
  const winner = racers[outcomes.indexOf("bought")]!;
  const loser = racers[outcomes.indexOf("failed")]!;
  await expect(loser.page.getByRole("alert").filter({ hasText: "Failed:" })).toHaveText(`Failed: ${TRADING_ERROR_MESSAGES.ListingFilled}`);
  expect(await ownerOf(tokenId)).toBe(winner.account.wallet);
  const price = parseEther("0.05");
  expect(await bnb(seller.wallet!)).toBe(sellerStart + price - tradingFee(price, SEEDED_FEE_BPS));
  // The winner paid the price and gas; the loser at most the gas of a refused transaction, never the price.
  const spent = async (racer: (typeof racers)[number]) => start[racers.indexOf(racer)]! - (await bnb(racer.account.wallet!));
  expect(await spent(winner)).toBeGreaterThan(price);
  expect(await spent(loser)).toBeLessThan(price);
});

test("the seller cancels a chain listing from the wallet, then transfers the card: the listing closes, the card moves", async ({
  page,
  walletPlayer,
}) => {
  test.setTimeout(90_000);
  const { wallet, tokenId } = await sellerWithCard(page, walletPlayer);
  await listOnChain(page, wallet, "3", "QUARK");
  const cancel = page.getByRole("form", { name: "Cancel listing" });
  await cancel.getByRole("button", { name: "Cancel listing" }).click();
  await expect(page.getByTestId("trade-status")).toHaveText("Not for sale", { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([APPROVE_ALL, CANCEL]);
  await expect(page.getByRole("form", { name: /Sell on chain/ })).toBeVisible();
  expect(await ownerOf(tokenId)).toBe(wallet.address);

  // Then it goes to another wallet: approved already, so one transaction; the page follows once the market has seen it.
  const friend = privateKeyToAccount(generatePrivateKey()).address;
  const transfer = page.getByRole("form", { name: "Transfer to a wallet" });
  await transfer.getByLabel("Recipient address").fill(friend);
  await transfer.getByRole("button", { name: "Transfer" }).click();
  await expect(page.getByText("You own this item.")).toHaveCount(0, { timeout: 20_000 });
  expect(sentSelectors(wallet)).toEqual([APPROVE_ALL, CANCEL, TRANSFER_NFT]);
  expect(await ownerOf(tokenId)).toBe(friend);
});
