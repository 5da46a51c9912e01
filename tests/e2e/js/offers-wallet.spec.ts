/**
 * Offers from browser wallets, JavaScript on (issue 30): the trade island signs each offer order in the wallet
 * (features/offers/offer-signing.tsx, features/market/sign-order.client.tsx) and the form posts the proof. An item
 * offer made and accepted to the wei, a collection offer from a market view accepted from storage, cancel and cancel
 * all. The wallet's list of what it signed shows that the wallet, not the server, signed every order.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../accounts";
import { fillOffer, fire, openOffers, ownerOf } from "../offer-reads";

test.describe.configure({ timeout: 120_000 });

const signing = (page: Page) => page.getByRole("status").filter({ hasText: "Sign the offer: confirm in your wallet…" });

/** Screenshots of the page at 390 and 1280 px, `target` scrolled into view. */
async function screenshots(page: Page, name: string, target: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

test("a browser wallet offers on a game item and the holder's wallet accepts: both signed in the wallets, balances to the wei", async ({
  page,
  baseURL,
  createAccount,
  walletPage,
  walletPlayer,
}) => {
  const [seller, { account: buyer, wallet: buyerWallet }] = await Promise.all([
    createAccount({ wallet: "browser", tag: "wallet-offer-seller", stock: { balances: { FIRE: 5 }, items: { 0: 1 } } }),
    walletPlayer({ tag: "wallet-offer-buyer", stock: { balances: { FIRE: 100 } } }),
  ]);
  const [card] = seller.items;
  await page.goto(card.url);
  await page.getByRole("link", { name: "Make an offer" }).click();
  const form = page.getByRole("form", { name: /^Offer for / });
  await expect(form).toBeVisible();
  await fillOffer(page, "12.345678901234567891", false);
  await screenshots(page, "wallet-offer-form", form);

  // The wallet waits for its user: the page says where to look, and the button waits too.
  const held = buyerWallet.holdSignatures();
  await form.getByRole("button", { name: "Make offer" }).click();
  await expect(signing(page)).toBeVisible();
  await expect(form.getByRole("button", { name: "Make offer" })).toBeDisabled();
  await screenshots(page, "wallet-offer-signing", form);
  held.release();
  await expect(page.getByText("Offer made: 12.345678901234567891 FIRE.")).toBeVisible();
  await expect(signing(page)).toHaveCount(0);
  expect(buyerWallet.signed).toEqual(["Offer"]);
  await expect(page.getByRole("button", { name: "Cancel your offer of 12.345678901234567891 FIRE" })).toBeVisible();

  const { page: sellerPage, wallet: sellerWallet } = await walletPage(seller);
  const price = 12_345_678_901_234_567_891n;
  const before = await Promise.all([fire(baseURL!, buyer), fire(baseURL!, seller)]);
  await sellerPage.goto(card.url);
  await sellerPage.getByRole("button", { name: "Accept 12.345678901234567891 FIRE for This item" }).click();
  await expect(sellerPage.getByText("Offer accepted: sold for 12.345678901234567891 FIRE.")).toBeVisible();
  expect(sellerWallet.signed).toEqual(["OfferAccept"]);
  expect(await fire(baseURL!, buyer)).toBe(before[0] - price);
  expect(await fire(baseURL!, seller)).toBe(before[1] + price);
  expect(await ownerOf(baseURL!, card)).toBe(buyer.wallet);
  // No transaction: a game item's offer is a ledger trade.
  expect([...buyerWallet.sent, ...sellerWallet.sent]).toEqual([]);
});

test("a browser wallet's collection offer from a market view is accepted from storage; cancel and cancel all are signed too", async ({
  page,
  baseURL,
  createAccount,
  walletPage,
  walletPlayer,
}) => {
  const [seller, { account: buyer, wallet: buyerWallet }] = await Promise.all([
    createAccount({ wallet: "browser", tag: "wallet-collection-seller", stock: { balances: {}, items: { 0: 2, 4: 1 } } }),
    walletPlayer({ tag: "wallet-collection-buyer", stock: { balances: { FIRE: 100 } } }),
  ]);
  const [cardA, cardB, ship] = seller.items;
  await page.goto(`/marketplace/market?nftType=${ship.nftType}`);
  await page.getByRole("link", { name: "Make an offer on any item of this view" }).click();
  await expect(page.getByRole("heading", { name: "Offer on any item of Spaceships" })).toBeVisible();
  // A price of this test's own: other tests' collection offers on spaceships reach this seller's storage too.
  await fillOffer(page, "6.000000000000000321");
  await expect(page.getByText("Offer made: 6.000000000000000321 FIRE.")).toBeVisible();

  const { page: sellerPage, wallet: sellerWallet } = await walletPage(seller);
  const before = await Promise.all([fire(baseURL!, buyer), fire(baseURL!, seller)]);
  await sellerPage.goto("/marketplace/storage");
  const accept = sellerPage.getByRole("button", { name: /^Accept 6\.000000000000000321 FIRE for .*Any item of Spaceships/ });
  await expect(accept).toHaveCount(1);
  await accept.click();
  await expect(sellerPage.getByText("Offer accepted: sold for 6.000000000000000321 FIRE.")).toBeVisible();
  expect(sellerWallet.signed).toEqual(["OfferAccept"]);
  expect(await fire(baseURL!, buyer)).toBe(before[0] - 6_000_000_000_000_000_321n);
  expect(await fire(baseURL!, seller)).toBe(before[1] + 6_000_000_000_000_000_321n);
  expect(await ownerOf(baseURL!, ship)).toBe(buyer.wallet);

  // Two item offers: one cancelled alone, from the offers page, then the rest at once.
  for (const [item, price] of [
    [cardA, "1.5"],
    [cardB, "2.5"],
  ] as const) {
    await page.goto(`/marketplace/offers?nftType=${item.nftType}&tokenId=${item.tokenId}`);
    await fillOffer(page, price);
    await expect(page.getByText(`Offer made: ${price} FIRE.`)).toBeVisible();
  }
  await page.getByRole("button", { name: "Cancel your offer of 1.5 FIRE" }).click();
  await expect(page.getByText("Offer cancelled.")).toBeVisible();
  expect(await openOffers(baseURL!, cardA, buyer.wallet)).toEqual([]);
  await page.getByRole("button", { name: "Cancel all offers" }).click();
  await expect(page.getByText("Cancelled 1 offer.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Cancel your offer/ })).toHaveCount(0);
  expect(await openOffers(baseURL!, cardB, buyer.wallet)).toEqual([]);
  expect(buyerWallet.signed).toEqual(["Offer", "Offer", "Offer", "OfferCancel", "OfferCancelAll"]);
});
