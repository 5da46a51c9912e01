/**
 * Offer limits and paging without JavaScript (issue 43): a buyer's sixth open offer on one item is refused in words
 * next to the offer form; an item with more open offers than a page shows the best 20 and links the next page, where
 * the holder accepts one of the cheaper offers.
 */
import { MAX_OPEN_OFFERS_PER_ITEM, OFFERS_PAGE_SIZE } from "~core/constants";
import { expect, test } from "../accounts";
import { fillOffer as offer } from "../offer-reads";

test("the per-item cap in words next to the form; an item's offers past a page, linked and accepted from page 2", async ({
  page,
  browser,
  createAccount,
  signIn,
}) => {
  test.setTimeout(240_000);
  const buyerCount = Math.ceil((OFFERS_PAGE_SIZE + 1) / MAX_OPEN_OFFERS_PER_ITEM);
  const [holder, ...buyers] = await Promise.all([
    createAccount({ tag: "offer-cap-holder", stock: { items: { 0: 1 } } }),
    ...Array.from({ length: buyerCount }, (_, i) => createAccount({ tag: `offer-cap-buyer-${i}`, stock: { balances: { FIRE: 1000 } } })),
  ]);
  const [card] = holder.items;
  const offerOn = `/marketplace/offers?nftType=${card!.nftType}&tokenId=${card!.tokenId}`;

  // Each buyer makes offers up to the cap; prices 1, 2, … so the cheapest fall past the first page.
  let price = 0;
  for (const [i, buyer] of buyers.entries()) {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const buyerPage = i === 0 ? page : await context.newPage();
    await signIn(buyerPage, buyer);
    await buyerPage.goto(offerOn);
    for (let n = 0; n < MAX_OPEN_OFFERS_PER_ITEM; n++) {
      price += 1;
      await offer(buyerPage, String(price));
      await expect(buyerPage.getByText(`Offer made: ${price} FIRE.`)).toBeVisible();
    }
    if (i === 0) {
      // One more on the same item: a 409, the words in the offer form, by its Make offer button.
      const refused = buyerPage.waitForResponse((response) => response.request().method() === "POST");
      await offer(buyerPage, "99");
      expect((await refused).status()).toBe(409);
      const form = buyerPage.locator("form").filter({ has: buyerPage.getByRole("button", { name: "Make offer" }) });
      await expect(form.getByRole("alert")).toContainText(
        `You already have ${MAX_OPEN_OFFERS_PER_ITEM} open offers on this item. Cancel one to make another.`,
      );
    } else {
      await context.close();
    }
  }
  const total = price;
  expect(total).toBeGreaterThan(OFFERS_PAGE_SIZE);

  // The holder's item page: the best page of offers, and plain links to the next.
  const holderContext = await browser.newContext({ javaScriptEnabled: false });
  const holderPage = await holderContext.newPage();
  await signIn(holderPage, holder);
  await holderPage.goto(card!.url);
  const table = holderPage.getByRole("table", { name: "Offers on this item" });
  await expect(table.getByRole("button", { name: /^Accept/ })).toHaveCount(OFFERS_PAGE_SIZE);
  await expect(table.getByRole("button", { name: `Accept ${total} FIRE for This item` })).toBeVisible();
  // Other tests' collection offers on every hero may be open too: at least ours.
  const shown = await holderPage.getByText(/^Offers 1–\d+ of \d+, best first$/).textContent();
  const all = Number(/of (\d+)/.exec(shown ?? "")?.[1]);
  expect(shown).toBe(`Offers 1–${OFFERS_PAGE_SIZE} of ${all}, best first`);
  expect(all).toBeGreaterThanOrEqual(total);
  const pages = holderPage.getByRole("navigation", { name: "Pages of offers" });
  await pages.getByRole("link", { name: "Next" }).click();
  await expect(holderPage).toHaveURL(/[?&]offersPage=2#offers-title$/);
  const rest = Math.min(all - OFFERS_PAGE_SIZE, OFFERS_PAGE_SIZE);
  await expect(holderPage.getByText(`Offers ${OFFERS_PAGE_SIZE + 1}–${OFFERS_PAGE_SIZE + rest} of ${all}, best first`)).toBeVisible();
  await expect(table.getByRole("button", { name: /^Accept/ })).toHaveCount(rest);
  // An offer of the second page is accepted like any other.
  await table.getByRole("button", { name: "Accept 1 FIRE for This item" }).click();
  await expect(holderPage.getByText("Offer accepted: sold for 1 FIRE.")).toBeVisible();
  await holderContext.close();
});
