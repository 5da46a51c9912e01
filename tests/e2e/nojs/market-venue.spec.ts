/**
 * Issue 28, JavaScript off: the market grid filtered to chain listings (`venue=chain`, a bookmarkable URL) shows only
 * listings that trade on chain, each card marked "On chain", among them a stack a browser wallet listed through the
 * trading contract (40 of its 100 Gold, signed with its key and stored by the market's chainSell).
 */
import { getAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sparkItemsAbi } from "../../../contracts/generated/abi";
import { readDeployment } from "../../../contracts/deployment";
import type { Envelope } from "~core/api/envelope";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import { LISTING_STANDARD, listingTypedData } from "~core/trading";
import { expect, test } from "../accounts";
import { mintStack, send } from "../chain-funds";
import { listingJson } from "../../contracts/harness";
import { e2eDataDir } from "../stock";

const GOLD = 8002n;
/** A card's venue marker: the one paragraph laid over the card's picture. */
const MARKER = "article > p";

test("venue=chain shows only chain listings, each marked On chain", async ({ page, createAccount, baseURL }) => {
  test.setTimeout(90_000);
  const seller = await createAccount({ wallet: "browser", stock: {}, chain: { BNB: 1 } });
  const wallet = getAddress(seller.wallet!);
  const { contracts, chainId } = readDeployment(`${e2eDataDir()}/chain/deployment.json`)!;
  await mintStack(wallet, GOLD, 100n);
  await send(wallet, contracts.items, { abi: sparkItemsAbi, functionName: "setApprovalForAll", args: [contracts.trading, true] });

  const listing = {
    seller: wallet,
    collection: contracts.items,
    standard: LISTING_STANDARD.erc1155,
    tokenId: GOLD,
    amount: 40n,
    currency: contracts.fire,
    price: 25n * 10n ** 18n,
    expiry: BigInt(Math.floor(Date.now() / 1000) + 3600),
    salt: BigInt(Math.floor(Math.random() * 2 ** 48)),
    counter: 0n,
  };
  const signature = await privateKeyToAccount(seller.key as Hex).signTypedData(listingTypedData(listing, chainId, contracts.trading));
  // The market stores the listing once its indexer has seen the minted stack.
  await expect(async () => {
    const response = await fetch(new URL("/api/v1/informationCenter/chainSell", baseURL), {
      method: "POST",
      headers: { [AUTH_TOKEN_HEADER]: seller.token, "Content-Type": "application/json" },
      body: JSON.stringify({ ...listingJson(listing), signature }),
    });
    const body = (await response.json()) as Envelope<unknown>;
    expect(body.success, body.msg).toBe(true);
  }).toPass({ timeout: 30_000 });

  await page.goto("/marketplace/market?venue=chain&nftType=8&currency=FIRE");
  await expect(page.getByLabel("Where it trades")).toHaveValue("chain");
  await expect(page.getByRole("link", { name: "Where: On chain" })).toBeVisible();
  const cards = page.getByRole("list", { name: "Items on sale" }).getByRole("listitem");
  const ours = cards.filter({ has: page.getByRole("link", { name: /^Gold ×100 #8002/ }) });
  await expect(ours).toHaveCount(1);
  await expect(ours.locator(MARKER)).toHaveText("On chain");
  await expect(ours.locator(MARKER)).toBeVisible();
  await expect(ours.getByText("25 FIRE")).toBeVisible();
  // Every card of the view trades on chain, and says so.
  const count = await cards.count();
  expect(count).toBeGreaterThan(0);
  await expect(page.locator(MARKER)).toHaveText(Array<string>(count).fill("On chain"));

  // The same view in the game only: our listing is not there, and every card there is marked In game.
  await page.goto("/marketplace/market?venue=game&nftType=8&currency=FIRE");
  await expect(page.getByRole("link", { name: /^Gold ×100 #8002/ })).toHaveCount(0);
  const gameCards = await page.getByRole("list", { name: "Items on sale" }).getByRole("listitem").count();
  expect(gameCards).toBeGreaterThan(0);
  await expect(page.locator(MARKER)).toHaveText(Array<string>(gameCards).fill("In game"));
});
