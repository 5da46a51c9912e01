/**
 * Offers on chain-held items without JavaScript, managed wallets (issue 30, decision 0024): a buyer offers on a hero
 * card held on chain (the trading contract's allowance raised first by the executor, then the SSO signs the TradeOffer),
 * the holder sees it on the item page and in storage and accepts it through the executor (one action however often the
 * form is posted), every FIRE balance exact to the wei and the card the buyer's; an offer the buyer can no longer pay
 * is shown as such and its accept refused with a 409 in words; the buyer cancels one offer, then all of them.
 */
import type { Page } from "@playwright/test";
import type { Address } from "viem";
import { gameTokenAbi } from "../../../contracts/generated/abi";
import { readDeployment } from "../../../contracts/deployment";
import { encodeItem } from "~core/item-data";
import { expect, test } from "../accounts";
import { mintItems, rpc, send } from "../chain-funds";
import { reloadUntil, waitForOutcome } from "../managed-chain";
import { e2eDataDir } from "../stock";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const heroCard = (rarity: number) => encodeItem.card({ rarity, camp: 1, identity: 1, profession: 1, level: 1 });
const detail = (tokenId: bigint) => `/marketplace/detail?nftType=0&tokenId=${tokenId}`;

/** The item page once the market's indexer has seen the card on chain: a signed-in viewer's offers section is there. */
async function openItem(page: Page, tokenId: bigint) {
  await page.goto(detail(tokenId));
  await reloadUntil(page, (quick) => quick(page.getByRole("heading", { name: "Offers" })).toBeVisible());
}

/** Fills and sends the offer form of the offers page; on a card type's view, paid from the wallet on chain. */
async function offer(page: Page, price: string, currency = "FIRE") {
  const payFrom = page.getByLabel("Pay from");
  if (await payFrom.count()) await payFrom.selectOption("chain");
  await page.getByLabel("Your price").fill(price);
  await page.getByLabel("Currency").selectOption(currency);
  await page.getByRole("button", { name: "Make offer" }).click();
}

/**
 * A buyer's first offer in FIRE: the executor's approval, followed to the end, then the offer made without typing it
 * again: by the status page's follow-up, or (`back`) by the form the way back fills as typed.
 */
async function offerWithApproval(page: Page, price: string, { then = "follow-up" }: { then?: "follow-up" | "back" } = {}) {
  const paidFromChain = (await page.getByLabel("Pay from").count()) > 0;
  await offer(page, price);
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Let the trading contract take the price of your offers | Spark Era");
  if (then === "follow-up") {
    const makeIt = page.getByRole("button", { name: `Make the offer: ${price} FIRE` });
    // On a phone, as on a desktop, the next step is on screen as the approval ends, beside the way back.
    const viewport = page.viewportSize();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await expect(makeIt).toBeInViewport();
      await page.screenshot({ path: test.info().outputPath(`offer-approved-${width}.png`) });
    }
    if (viewport) await page.setViewportSize(viewport);
    await makeIt.click();
  } else {
    await page.getByRole("link", { name: "Back to your offers" }).click();
    await expect(page.getByLabel("Your price")).toHaveValue(price);
    await expect(page.getByLabel("Currency")).toHaveValue("FIRE");
    if (paidFromChain) await expect(page.getByLabel("Pay from")).toHaveValue("chain");
    await page.getByRole("button", { name: "Make offer" }).click();
  }
  await expect(page.getByText(`Offer made on chain: ${price} FIRE.`)).toBeVisible();
  // The offer made, the page no longer fills the form with it.
  await expect(page.getByLabel("Your price")).toHaveValue("");
}

/** The fields of the accept form behind `button` (what a second post of the same form would send). */
async function formFields(page: Page, button: string): Promise<Record<string, string>> {
  const form = page.locator("form", { has: page.getByRole("button", { name: button }) });
  const inputs = await form.locator("input[type=hidden]").all();
  return Object.fromEntries(await Promise.all(inputs.map(async (input) => [await input.getAttribute("name"), await input.inputValue()])));
}

/** The buyer withdraws the trading contract's FIRE allowance outside the app (as another wallet app could). */
async function revokeAllowance(wallet: Address) {
  const { contracts } = readDeployment(`${e2eDataDir()}/chain/deployment.json`)!;
  await rpc("anvil_impersonateAccount", [wallet]);
  try {
    await send(wallet, contracts.fire, { abi: gameTokenAbi, functionName: "approve", args: [contracts.trading, 0n] });
  } finally {
    await rpc("anvil_stopImpersonatingAccount", [wallet]);
  }
}

test("a managed buyer offers on a card held on chain and the managed holder accepts: every FIRE balance exact to the wei", async ({
  page,
  baseURL,
  createAccount,
  signIn,
  signedInPage,
  read,
}) => {
  test.setTimeout(240_000);
  const [holder, buyer] = await Promise.all([
    createAccount({ stock: {}, chain: { BNB: 1 } }),
    createAccount({ stock: {}, chain: { BNB: 1, FIRE: 100 } }),
  ]);
  const [tokenId, other] = await mintItems(holder.wallet!, [heroCard(3), heroCard(2)]);
  await signIn(page, buyer);
  await openItem(page, tokenId!);
  await page.getByRole("link", { name: "Make an offer" }).click();
  await expect(page.getByText("Held on chain: paid from your wallet in FIRE, QUARK or USDT (not BNB)", { exact: false })).toBeVisible();
  await expect(page.getByLabel("Currency").locator("option")).toHaveText(["FIRE", "QUARK", "USDT"]);

  // More than the wallet holds: refused next to the price, nothing sent.
  const refused = page.waitForResponse((response) => response.request().method() === "POST");
  await offer(page, "100.5");
  expect((await refused).status()).toBe(409);
  await expect(page.getByLabel("Your price")).toHaveAccessibleDescription(/You do not have enough FIRE in your wallet for this offer\./);
  expect(await read.sent(buyer.wallet!)).toBe(0);

  const price = 12n * WEI + 345n;
  await offerWithApproval(page, "12.000000000000000345");
  const mine = page.getByRole("table", { name: "Your offers" });
  await expect(mine.getByRole("row").filter({ hasText: "12.000000000000000345 FIRE" })).toContainText("Cancel");

  const holderPage = await signedInPage(holder);
  await holderPage.goto("/marketplace/storage");
  const received = holderPage.getByRole("table", { name: "Offers on your items" });
  await expect(received.getByRole("button", { name: /^Accept 12\.000000000000000345 FIRE for / })).toBeVisible();
  await expect(received.getByRole("row").filter({ hasText: "12.000000000000000345 FIRE" })).toContainText("from a wallet on chain");
  await openItem(holderPage, tokenId!);
  const accept = "Accept 12.000000000000000345 FIRE for This item";
  await expect(holderPage.getByRole("button", { name: accept })).toBeVisible();

  // The same form posted twice (a double click, a resent page) starts one action.
  const fields = await formFields(holderPage, accept);
  const post = () => holderPage.request.post("/marketplace/offers", { form: fields, headers: { Origin: baseURL! }, maxRedirects: 0 });
  const [first, second] = [await post(), await post()];
  expect([first.status(), second.status()], await second.text()).toEqual([303, 303]);
  expect(second.headers().location).toBe(first.headers().location);
  await holderPage.goto(first.headers().location!);
  await waitForOutcome(holderPage);
  await holderPage.getByRole("link", { name: "Back to the item" }).click();
  await reloadUntil(holderPage, (quick) => quick(holderPage.getByText("You (", { exact: false })).toHaveCount(0));

  const fee = (price * 250n) / 10_000n;
  expect(await read.balance("FIRE", buyer.wallet!)).toBe(100n * WEI - price);
  expect(await read.transferred("FIRE", buyer.wallet!, holder.wallet!)).toBe(price - fee);
  expect(await read.balance("FIRE", holder.wallet!)).toBe(price - fee);
  expect(await read.transferred("FIRE", buyer.wallet!, read.treasury)).toBe(fee);
  expect(await read.cardOwner(tokenId!)).toBe(buyer.wallet!);
  await openItem(page, tokenId!);
  await expect(page.getByText(`You (${buyer.wallet})`)).toBeVisible();

  // An offer the buyer can no longer pay: shown as such, without an accept button, and its accept refused in words.
  await openItem(page, other!);
  await page.getByRole("link", { name: "Make an offer" }).click();
  await offerWithApproval(page, "7");
  await openItem(holderPage, other!);
  const stale = await formFields(holderPage, "Accept 7 FIRE for This item");
  await revokeAllowance(buyer.wallet!);
  await holderPage.reload();
  await expect(
    holderPage.getByText("Can no longer be paid: the buyer’s wallet balance or allowance on chain is below this price."),
  ).toBeVisible();
  await expect(holderPage.getByRole("button", { name: /^Accept/ })).toHaveCount(0);
  const unpayable = await holderPage.request.post("/marketplace/offers", { form: stale, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(unpayable.status()).toBe(409);
  expect(await unpayable.text()).toContain("The buyer can no longer pay this offer, so it cannot be accepted.");
  expect(await read.cardOwner(other!)).toBe(holder.wallet!);

  // The buyer withdraws it on chain: the offer closes once the indexer reads OfferCancelled.
  await page.goto("/marketplace/offers");
  const row = mine.getByRole("row").filter({ hasText: "7 FIRE" });
  await row.getByRole("button", { name: "Cancel your offer of 7 FIRE" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Withdraw your offer | Spark Era");
  await page.getByRole("link", { name: "Back to your offers" }).click();
  await reloadUntil(page, (quick) => quick(mine.getByRole("row").filter({ hasText: "7 FIRE" })).toContainText("Cancelled"));
});

test("a managed buyer offers from the wallet on chain on a card type's view, then cancels all chain offers at once", async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(180_000);
  const [holder, buyer] = await Promise.all([
    createAccount({ stock: {}, chain: { BNB: 1 } }),
    createAccount({ stock: {}, chain: { BNB: 1, FIRE: 20 } }),
  ]);
  const [tokenId] = await mintItems(holder.wallet!, [heroCard(1)]);
  await signIn(page, buyer);
  await openItem(page, tokenId!);
  await page.getByRole("link", { name: "Make an offer" }).click();
  await offerWithApproval(page, "2");

  // A card type's view: paid from the wallet on chain, the chain promises the type only. BNB is refused next to it.
  await page.goto("/marketplace/offers?nftType=0");
  await offer(page, "3", "BNB");
  await expect(page.getByLabel("Currency")).toHaveAccessibleDescription(
    "Offers on chain are paid in FIRE, QUARK or USDT: BNB cannot be offered there.",
  );
  // Two offers in FIRE need 5 FIRE of allowance: the executor raises it, then the offer is made.
  await offerWithApproval(page, "3", { then: "back" });

  const mine = page.getByRole("table", { name: "Your offers" });
  await expect(mine.getByRole("row").filter({ hasText: "Any item of" })).toContainText("3 FIRE");
  await page.getByRole("button", { name: "Cancel all chain offers and listings" }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Cancel all your chain listings | Spark Era");
  await page.getByRole("link", { name: "Back to your offers" }).click();
  await reloadUntil(page, (quick) => quick(mine.getByRole("button", { name: /^Cancel your offer/ })).toHaveCount(0));
  await expect(mine.getByRole("row").filter({ hasText: "Cancelled" })).toHaveCount(2);
});
