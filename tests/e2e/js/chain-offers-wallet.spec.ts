/**
 * Offers on chain-held items from browser wallets, JavaScript on (issue 30, decision 0024): the buyer's wallet
 * approves the trading contract for the currency and signs a TradeOffer, which the offers page posts for the market to
 * store; the holder's wallet approves the collection and calls acceptOffer from the item page; the buyer withdraws
 * another with cancelOffers. Chain balances exact to the wei, the fee included; the indexer closes each offer.
 */
import type { Locator, Page } from "@playwright/test";
import { parseEther, toFunctionSelector, type Address } from "viem";
import { encodeItem } from "~core/item-data";
import { NFT_TYPE } from "~core/nft";
import { SEEDED_FEE_BPS, tradingFee } from "~core/trading";
import { expect, test as base, type Account } from "../accounts";
import { mintItems } from "../chain-funds";
import { fillOffer, openOffers } from "../offer-reads";
import { APPROVE, APPROVE_ALL, sentSelectors, type TestWallet } from "../wallet";

const OFFER = "(address,address,uint8,uint256,uint96,uint96,uint256,address,uint256,uint256,uint256,uint256)";
const ACCEPT_OFFER = toFunctionSelector(`acceptOffer(${OFFER},bytes,uint256)`);
const CANCEL_OFFERS = toFunctionSelector(`cancelOffers(${OFFER}[])`);
const INCREMENT_COUNTER = toFunctionSelector("incrementCounter()");
const status = (page: Page) => page.getByTestId("chain-offer-status");

/** Screenshots of the page at 390 and 1280 px, `target` scrolled into view. */
async function screenshots(page: Page, name: string, target: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

/** Hero cards minted on chain into `account`'s wallet, once the market has indexed them there. */
async function chainCards(baseURL: string, account: Account, count: number) {
  const words = Array.from({ length: count }, (_, n) => encodeItem.card({ rarity: 2, camp: 1, identity: 2, profession: 1, level: 1 + n }));
  const tokenIds = await mintItems(account.wallet!, words);
  const items = tokenIds.map((tokenId) => ({ tokenId: tokenId.toString(), nftType: NFT_TYPE.card }));
  for (const item of items) {
    await expect
      .poll(async () => {
        const response = await fetch(
          new URL(`/api/v1/informationCenter/tokenDetailByTokenId?tokenId=${item.tokenId}&nftType=${item.nftType}`, baseURL),
        );
        return ((await response.json()) as { data?: { location?: string } }).data?.location;
      })
      .toBe("chain");
  }
  return items;
}

interface HolderAndBuyer {
  /**
   * A browser-wallet holder of `cards` fresh chain cards and a browser-wallet buyer with `fire` FIRE on chain, both with
   * BNB for gas; the buyer signed in on the test's page with its wallet installed.
   */
  holderAndBuyer(set: { tag: string; fire: number; cards: number }): Promise<{
    seller: Account;
    buyer: Account;
    items: Awaited<ReturnType<typeof chainCards>>;
    buyerWallet: TestWallet;
  }>;
}

const test = base.extend<HolderAndBuyer>({
  holderAndBuyer: async ({ baseURL, createAccount, walletPlayer }, provide) => {
    await provide(async ({ tag, fire, cards }) => {
      const [seller, { account: buyer, wallet: buyerWallet }] = await Promise.all([
        createAccount({ wallet: "browser", stock: {}, chain: { BNB: 1 }, tag: `${tag}-seller` }),
        walletPlayer({ stock: {}, chain: { BNB: 1, FIRE: fire }, tag: `${tag}-buyer` }),
      ]);
      const items = await chainCards(baseURL!, seller, cards);
      return { seller, buyer, items, buyerWallet };
    });
  },
});

const offerPage = (item: { tokenId: string; nftType: number }) => `/marketplace/offers?nftType=${item.nftType}&tokenId=${item.tokenId}`;

test("a browser wallet offers on a chain-held card and the holder's wallet accepts it: the card moves, the price to the wei, fee included", async ({
  page,
  baseURL,
  holderAndBuyer,
  walletPage,
  read,
}) => {
  test.setTimeout(150_000);
  const { seller, buyer, items, buyerWallet } = await holderAndBuyer({ tag: "chain-offer", fire: 20, cards: 1 });
  const [card] = items;
  await page.goto(offerPage(card));
  const form = page.getByRole("form", { name: /^Offer for / });
  await fillOffer(page, "12.5", false);

  // The wallet holds its approval while the page shows what it waits for.
  const held = buyerWallet.hold();
  await form.getByRole("button", { name: "Make offer" }).click();
  await expect(status(page)).toContainText("Let the market take the price when accepted: confirm in your wallet…");
  await expect(form.getByRole("button", { name: "Make offer" })).toBeDisabled();
  await screenshots(page, "chain-offer-approving", form);
  held.release();
  await expect(page.getByText("Offer made on chain: 12.5 FIRE.")).toBeVisible({ timeout: 20_000 });
  expect(sentSelectors(buyerWallet)).toEqual([APPROVE]);
  expect(buyerWallet.signed).toEqual(["TradeOffer"]);
  const [stored] = await openOffers(baseURL!, card, buyer.wallet);
  expect(stored).toMatchObject({ venue: "chain", price: parseEther("12.5").toString(), currency: "FIRE", payable: true });

  const { page: sellerPage, wallet: sellerWallet } = await walletPage(seller);
  const price = parseEther("12.5");
  const fee = tradingFee(price, SEEDED_FEE_BPS);
  const before = { buyer: await read.balance("FIRE", buyer.wallet!), seller: await read.balance("FIRE", seller.wallet!) };
  const treasuryBefore = await read.transferred("FIRE", buyer.wallet!, read.treasury as Address);
  await sellerPage.goto(`/marketplace/detail?nftType=${card.nftType}&tokenId=${card.tokenId}`);
  const accept = sellerPage.getByRole("button", { name: "Accept 12.5 FIRE for This item" });
  const accepting = sellerWallet.hold();
  await accept.click();
  await expect(status(sellerPage)).toContainText("Let the market move your items: confirm in your wallet…");
  await screenshots(sellerPage, "chain-offer-accepting", status(sellerPage));
  accepting.release();
  // The indexer closes the offer; the page reads itself again until it shows that.
  await expect(status(sellerPage)).toContainText("Offer accepted: the item is the buyer’s and the price is in your wallet.", {
    timeout: 30_000,
  });
  expect(sentSelectors(sellerWallet)).toEqual([APPROVE_ALL, ACCEPT_OFFER]);
  expect(await read.cardOwner(BigInt(card.tokenId))).toBe(buyer.wallet);
  expect(await read.balance("FIRE", buyer.wallet!)).toBe(before.buyer - price);
  expect(await read.balance("FIRE", seller.wallet!)).toBe(before.seller + price - fee);
  expect(await read.transferred("FIRE", buyer.wallet!, read.treasury as Address)).toBe(treasuryBefore + fee);
  expect(await openOffers(baseURL!, card, buyer.wallet)).toEqual([]);
});

test("a browser wallet withdraws its chain offer with cancelOffers: the market closes it once the chain has", async ({
  page,
  baseURL,
  holderAndBuyer,
}) => {
  test.setTimeout(120_000);
  const { buyer, items, buyerWallet } = await holderAndBuyer({ tag: "chain-withdraw", fire: 10, cards: 1 });
  const [card] = items;
  await page.goto(offerPage(card));
  await fillOffer(page, "3");
  await expect(page.getByText("Offer made on chain: 3 FIRE.")).toBeVisible({ timeout: 20_000 });

  await page.getByRole("button", { name: "Cancel your offer of 3 FIRE" }).click();
  const withdrawing = page.getByRole("region", { name: "Your offers" }).getByTestId("chain-offer-status");
  await expect(withdrawing).toContainText("Your offer is withdrawn.", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: /^Cancel your offer/ })).toHaveCount(0);
  expect(sentSelectors(buyerWallet)).toEqual([APPROVE, CANCEL_OFFERS]);
  expect(buyerWallet.signed).toEqual(["TradeOffer"]);
  expect(await openOffers(baseURL!, card, buyer.wallet)).toEqual([]);
});

test("a browser wallet's chain offer on any card of a type, paid from the wallet, is accepted from storage; cancel all ends the rest on chain", async ({
  page,
  baseURL,
  holderAndBuyer,
  walletPage,
  read,
}) => {
  test.setTimeout(150_000);
  const { seller, buyer, items, buyerWallet } = await holderAndBuyer({ tag: "chain-any", fire: 10, cards: 2 });
  const [card, other] = items;
  await page.goto(`/marketplace/market?nftType=${NFT_TYPE.card}`);
  await page.getByRole("link", { name: "Make an offer on any item of this view" }).click();
  await page.getByLabel("Pay from").selectOption("chain");
  // A price of this test's own: other tests' holders of chain cards see this offer too.
  await fillOffer(page, "4.000000000000000777");
  await expect(page.getByText("Offer made on chain: 4.000000000000000777 FIRE.")).toBeVisible({ timeout: 20_000 });
  expect(buyerWallet.signed).toEqual(["TradeOffer"]);

  const { page: sellerPage, wallet: sellerWallet } = await walletPage(seller);
  const price = 4_000_000_000_000_000_777n;
  const before = { buyer: await read.balance("FIRE", buyer.wallet!), seller: await read.balance("FIRE", seller.wallet!) };
  await sellerPage.goto("/marketplace/storage");
  const received = sellerPage.getByRole("region", { name: "Offers on your items" });
  const accept = received.getByRole("button", { name: /^Accept 4\.000000000000000777 FIRE for / });
  // The offer matches both cards: one row each; the first is accepted.
  await expect(accept).toHaveCount(2);
  await accept.first().click();
  await expect(received.getByTestId("chain-offer-status")).toContainText(
    "Offer accepted: the item is the buyer’s and the price is in your wallet.",
    { timeout: 30_000 },
  );
  expect(sentSelectors(sellerWallet)).toEqual([APPROVE_ALL, ACCEPT_OFFER]);
  const owners = await Promise.all([card, other].map((item) => read.cardOwner(BigInt(item.tokenId))));
  expect([...owners].sort()).toEqual([buyer.wallet, seller.wallet].sort());
  expect(await read.balance("FIRE", buyer.wallet!)).toBe(before.buyer - price);
  expect(await read.balance("FIRE", seller.wallet!)).toBe(before.seller + price - tradingFee(price, SEEDED_FEE_BPS));

  // One more offer, on the card the seller kept; then the trading counter ends every chain offer of the buyer's.
  const kept = owners[0] === seller.wallet ? card : other;
  await page.goto(offerPage(kept));
  await fillOffer(page, "2");
  await expect(page.getByText("Offer made on chain: 2 FIRE.")).toBeVisible({ timeout: 20_000 });
  const cancelAll = page.getByRole("form", { name: "Cancel all chain offers and listings" });
  await cancelAll.getByRole("button", { name: "Cancel all chain offers and listings" }).click();
  const yours = page.getByRole("region", { name: "Your offers" });
  await expect(yours.getByTestId("chain-offer-status")).toContainText("All your chain offers and listings are cancelled.", {
    timeout: 30_000,
  });
  expect(sentSelectors(buyerWallet)).toEqual([APPROVE, APPROVE, INCREMENT_COUNTER]);
  await expect(cancelAll).toHaveCount(0);
  expect(await openOffers(baseURL!, kept, buyer.wallet)).toEqual([]);
});

test("a browser wallet's chain offer that cannot go ahead says why and sends nothing; after a refusal in the wallet the same form goes through", async ({
  page,
  baseURL,
  holderAndBuyer,
}) => {
  test.setTimeout(120_000);
  const { buyer, items, buyerWallet } = await holderAndBuyer({ tag: "chain-offer-refused", fire: 5, cards: 1 });
  const [card] = items;
  const makeOffer = page.getByRole("button", { name: "Make offer" });
  const failedWith = async (text: string) => {
    await expect(status(page)).toHaveAttribute("data-state", "failed");
    await expect(page.getByRole("alert").filter({ hasText: `Failed: ${text}` })).toBeVisible();
    await expect(makeOffer).toBeEnabled();
  };

  // A card type's view paid from the wallet: BNB cannot be pulled from a wallet, so the island stops before the wallet.
  await page.goto(`/marketplace/offers?nftType=${NFT_TYPE.card}`);
  await page.getByLabel("Pay from").selectOption("chain");
  await page.getByLabel("Your price").fill("1");
  await page.getByLabel("Currency").selectOption("BNB");
  await makeOffer.click();
  await failedWith("Offers on chain are paid in FIRE, QUARK or USDT: BNB cannot be offered there.");

  // More than the wallet holds: refused before any approval.
  await page.goto(offerPage(card));
  await fillOffer(page, "5.000000000000000001");
  await failedWith("You do not have enough FIRE in your wallet for this offer.");
  await screenshots(page, "chain-offer-no-funds", status(page));
  expect(buyerWallet.sent).toEqual([]);

  // The user rejects the approval, then the signature: each time the step it stopped on is marked, nothing is stored.
  await page.getByLabel("Your price").fill("2");
  buyerWallet.rejectNext("send");
  await makeOffer.click();
  await failedWith("You cancelled the request in your wallet.");
  await expect(status(page)).toContainText("Let the market take the price when accepted: failed");
  buyerWallet.rejectNext("sign");
  await makeOffer.click();
  await failedWith("You cancelled the request in your wallet.");
  await expect(status(page)).toContainText("Sign the offer: failed");
  expect(sentSelectors(buyerWallet)).toEqual([APPROVE]);
  expect(buyerWallet.signed).toEqual([]);
  expect(await openOffers(baseURL!, card, buyer.wallet)).toEqual([]);

  // Pressed once more, the same form goes through: the approval is in place, only the signature is asked.
  await makeOffer.click();
  await expect(page.getByText("Offer made on chain: 2 FIRE.")).toBeVisible({ timeout: 20_000 });
  expect(sentSelectors(buyerWallet)).toEqual([APPROVE]);
  expect(buyerWallet.signed).toEqual(["TradeOffer"]);
  const [stored] = await openOffers(baseURL!, card, buyer.wallet);
  expect(stored).toMatchObject({ venue: "chain", price: parseEther("2").toString(), currency: "FIRE", payable: true });
});
