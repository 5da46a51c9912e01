/** Offers without JavaScript (issue 30): item and collection offers, accepted as ledger trades; cancel; an unpayable offer. */
import { expect, test } from "../accounts";
import type { Address } from "viem";
import { fillOffer as offer, fire, openOffers, ownerOf } from "../offer-reads";
import { stockAccount } from "../stock";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;

test("offers without JavaScript: make and accept to the wei, a collection offer from a market view, cancel, an unpayable offer refused", async ({
  page,
  baseURL,
  createAccount,
  signIn,
  signedInPage,
}) => {
  test.setTimeout(180_000);
  const [seller, buyer, poor] = await Promise.all([
    createAccount({ tag: "offer-seller", stock: { balances: { FIRE: 50 }, items: { 0: 3, 4: 1 } } }),
    createAccount({ tag: "offer-buyer", stock: { balances: { FIRE: 100 } } }),
    createAccount({ tag: "offer-poor", stock: { balances: { FIRE: 10 } } }),
  ]);
  const [card, cardB, cardC, ship] = seller.items;
  const sellerPage = await signedInPage(seller);
  await signIn(page, buyer);

  // An item offer, to the wei, from the item page; bad input first: the message next to the field, with a 4xx.
  await page.goto(card.url);
  await expect(page.getByRole("heading", { name: "Offers" })).toBeVisible();
  await page.getByRole("link", { name: "Make an offer" }).click();
  const offerPage = page.url();
  const refused = page.waitForResponse((response) => response.request().method() === "POST");
  await offer(page, "-1");
  expect((await refused).status()).toBe(400);
  await expect(page.getByText("Enter a price as a decimal number, like 12.5")).toBeVisible();
  await page.goto(offerPage);
  const price = 12n * WEI + 345_678_901_234_567_891n;
  await offer(page, "12.345678901234567891");
  await expect(page.getByText("Offer made: 12.345678901234567891 FIRE.")).toBeVisible();

  const [buyerBefore, sellerBefore] = await Promise.all([fire(baseURL!, buyer), fire(baseURL!, seller)]);
  await sellerPage.goto(card.url);
  await sellerPage.getByRole("button", { name: "Accept 12.345678901234567891 FIRE for This item" }).click();
  await expect(sellerPage.getByText("Offer accepted: sold for 12.345678901234567891 FIRE.")).toBeVisible();
  expect(await fire(baseURL!, buyer)).toBe(buyerBefore - price);
  expect(await fire(baseURL!, seller)).toBe(sellerBefore + price);
  expect(await ownerOf(baseURL!, card)).toBe(buyer.wallet);

  // A collection offer, made from a market view of one type, accepted from storage for one item of the view.
  await page.goto(`/marketplace/market?nftType=${ship.nftType}`);
  await page.getByRole("link", { name: "Make an offer on any item of this view" }).click();
  await expect(page.getByRole("heading", { name: "Offer on any item of Spaceships" })).toBeVisible();
  await offer(page, "7.654321");
  await expect(page.getByText("Offer made: 7.654321 FIRE.")).toBeVisible();
  await expect(page.getByRole("cell", { name: "Any item of Spaceships" }).first()).toBeVisible();

  const collectionBefore = await Promise.all([fire(baseURL!, buyer), fire(baseURL!, seller)]);
  await sellerPage.goto("/marketplace/storage");
  const accept = sellerPage.getByRole("button", { name: /^Accept 7\.654321 FIRE for .*Any item of Spaceships/ });
  await expect(accept).toHaveCount(1);
  await accept.click();
  await expect(sellerPage.getByText("Offer accepted: sold for 7.654321 FIRE.")).toBeVisible();
  expect(await fire(baseURL!, buyer)).toBe(collectionBefore[0] - 7_654_321n * 10n ** 12n);
  expect(await fire(baseURL!, seller)).toBe(collectionBefore[1] + 7_654_321n * 10n ** 12n);
  expect(await ownerOf(baseURL!, ship)).toBe(buyer.wallet);

  // Funds are not held aside, but open offers may not promise more than the balance (issue 43): an offer of all the
  // poor buyer has, then a second in the same currency refused in words; once the balance drops, the first cannot be paid.
  const poorPage = await signedInPage(poor);
  const offerOn = (item: { tokenId: string; nftType: number }) => `/marketplace/offers?nftType=${item.nftType}&tokenId=${item.tokenId}`;
  await poorPage.goto(offerOn(cardB));
  await offer(poorPage, "10");
  await expect(poorPage.getByText("Offer made: 10 FIRE.")).toBeVisible();
  await poorPage.goto(offerOn(cardC));
  await offer(poorPage, "10");
  await expect(poorPage.getByRole("alert")).toContainText(
    "Your open offers in FIRE would come to more than your game balance of FIRE. Cancel one or offer less.",
  );
  // More than the balance is refused when made.
  await poorPage.goto(offerOn(cardB));
  await offer(poorPage, "10.5");
  await expect(poorPage.getByRole("alert")).toContainText("You do not have enough FIRE in the game for this offer.");

  // The poor buyer's balance goes elsewhere (as a buy or a swap out would take it).
  await stockAccount(poor.wallet as Address, { balances: { FIRE: -5 } }, new URL(baseURL!).port);
  await sellerPage.goto(cardB.url);
  await expect(sellerPage.getByText("Can no longer be paid: the buyer’s game balance is below this price.")).toBeVisible();
  await expect(sellerPage.getByRole("button", { name: /^Accept/ })).toHaveCount(0);
  const [unpayable] = await openOffers(baseURL!, cardB);
  const post = await sellerPage.request.post("/marketplace/offers", {
    form: {
      intent: "offer-accept",
      offerId: unpayable.id,
      tokenId: cardB.tokenId,
      nftType: String(cardB.nftType),
      back: "/marketplace/storage",
    },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(409);
  expect(await post.text()).toContain("This offer can no longer be paid: the buyer’s game balance is below its price.");

  // The buyer cancels it from their offers page.
  await poorPage.goto("/marketplace/offers");
  await poorPage.getByRole("button", { name: "Cancel your offer of 10 FIRE" }).click();
  await expect(poorPage.getByText("Offer cancelled.")).toBeVisible();
  await expect(poorPage.getByRole("button", { name: /^Cancel your offer/ })).toHaveCount(0);
  expect(await openOffers(baseURL!, cardB)).toEqual([]);
  await sellerPage.context().close();
});

test("a visitor sees an item's open offers, read only, and a new one at once though visitors' pages are cached", async ({
  page,
  browser,
  createAccount,
  signIn,
}) => {
  const [holder, buyer] = await Promise.all([
    createAccount({ tag: "offer-visited", stock: { items: { 0: 1 } } }),
    createAccount({ tag: "offer-visitor-buyer", stock: { balances: { FIRE: 100 } } }),
  ]);
  const [card] = holder.items;
  const visitor = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  const offersOf = () => visitor.getByRole("table", { name: "Offers on this item" });
  // Rendered (and cached) before any offer.
  await visitor.goto(card!.url);
  await expect(visitor.getByRole("heading", { name: "Offers" })).toBeVisible();
  await expect(visitor.getByText("No open offers on this item.")).toBeVisible();

  await signIn(page, buyer);
  await page.goto(card!.url);
  await page.getByRole("link", { name: "Make an offer" }).click();
  await offer(page, "3.5");
  await expect(page.getByText("Offer made: 3.5 FIRE.")).toBeVisible();

  // The made offer moved the page generation: the visitor's next load shows it, with nothing to press but "Make an offer".
  await visitor.goto(card!.url);
  await expect(offersOf().getByRole("row").filter({ hasText: "3.5 FIRE" })).toContainText(`by ${buyer.wallet!.slice(0, 6)}`);
  await expect(visitor.getByRole("button", { name: /^Accept/ })).toHaveCount(0);
  await visitor.getByRole("link", { name: "Make an offer" }).click();
  await expect(visitor.getByRole("heading", { level: 1, name: "Offers" })).toBeVisible();
});
