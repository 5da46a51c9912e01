/**
 * Issue 29 item 2, JavaScript off: the sale's terms on the box page (product §7, decision 0018). A box type before
 * its start date says when it opens and refuses its buy form; a PSE holder and a whitelisted wallet see why they pay
 * less and pay exactly that, to the wei, through the executor. Every wallet is the test's own; the chain is read
 * directly to check.
 */
import type { Page } from "@playwright/test";
import { createPublicClient, http, type Address } from "viem";
import { blindBoxSaleAbi } from "../../../contracts/generated/abi";
import { readDeployment } from "../../../contracts/deployment";
import { formatChainTime } from "~core/chain-text";
import { encodeItem } from "~core/item-data";
import { SALE_PRICE_KIND } from "~core/sale-terms";
import { hiddenForm } from "../../fuzz/client";
import { type AccountFixtures, expect, test } from "../accounts";
import { type ChainFunds, mintItems, rpc, send } from "../chain-funds";
import { chainReader, waitForOutcome } from "../managed-chain";
import { e2eDataDir } from "../stock";
import { E2E_RPC_URL } from "../wallet";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
/** No other spec buys Legendary boxes: its start date can move for a moment without troubling them. */
const LATE_TYPE = 7;

function deployment() {
  const found = readDeployment(`${e2eDataDir()}/chain/deployment.json`);
  if (!found) throw new Error("No deployment of the e2e server's chain");
  return found;
}

/** The deployer (the sale's owner) calls the sale. */
function administer(call: Parameters<typeof send>[2]) {
  const { contracts, accounts } = deployment();
  return send(accounts.deployer, contracts.boxSale, call);
}

async function chainTime(): Promise<bigint> {
  return BigInt((await rpc<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp);
}

async function managedOnBox({ page, createAccount, signIn }: { page: Page } & AccountFixtures, chain: ChainFunds) {
  const account = await createAccount({ wallet: "managed", stock: {}, chain });
  await signIn(page, account);
  return account.wallet!;
}

test("a box type before its start date shows when it opens, in UTC with a countdown, and its post is refused", async ({
  page,
  createAccount,
  signIn,
  baseURL,
}) => {
  await managedOnBox({ page, createAccount, signIn }, { BNB: 1, USDT: 500 });
  // Two days, three hours and a half from the chain's time: the countdown reads "2 d 3 h" whatever else is mined meanwhile.
  const opens = (await chainTime()) + 2n * 86_400n + 3n * 3_600n + 1_800n;
  await administer({ abi: blindBoxSaleAbi, functionName: "setBoxTypeStartDate", args: [BigInt(LATE_TYPE), opens] });
  try {
    await page.goto(`/lootbox/${LATE_TYPE}`);
    await expect(page.getByTestId("sale-start")).toHaveText(`from ${formatChainTime(opens)} (opens in 2 d 3 h)`);
    await expect(page.getByTestId("buy-limit")).toHaveText(`Not on sale yet: opens in 2 d 3 h, at ${formatChainTime(opens)}.`);
    await expect(page.getByRole("button", { name: "Buy", exact: true })).toBeDisabled();

    // The form as the page rendered it, posted anyway (an old tab, a crafted post): refused next to the form.
    const form = hiddenForm(await page.content(), "buy");
    expect(form).not.toBeNull();
    const refused = await page.request.post(`/lootbox/${LATE_TYPE}`, {
      form: { ...form!.fields, currency: "USDT", quantity: "1" },
      headers: { Origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(409);
    await page.setContent(await refused.text());
    await expect(page.getByRole("alert")).toHaveText(`This box is not on sale yet: it goes on sale at ${formatChainTime(opens)}.`);
  } finally {
    await administer({ abi: blindBoxSaleAbi, functionName: "setBoxTypeStartDate", args: [BigInt(LATE_TYPE), 0n] });
  }
});

test("a PSE holder sees the PSE holder price and pays exactly it", async ({ page, createAccount, signIn }) => {
  test.setTimeout(90_000);
  const chain = chainReader();
  const wallet = await managedOnBox({ page, createAccount, signIn }, { BNB: 1, USDT: 100 });
  await mintItems(wallet, [encodeItem.pse(1)]);
  const [pse, list] = await Promise.all([readVariant("psePriceInToken", 4, wallet), chain.price(4, "USDT")]);
  expect(pse.kind).toBe(SALE_PRICE_KIND.pse);
  expect(pse.price).toBeLessThan(list);

  await page.goto("/lootbox/4");
  await expect(page.getByTestId("price-reason")).toHaveText("PSE holder price");
  await expect(page.getByRole("list", { name: "Prices" })).toContainText(`${Number(pse.price) / Number(WEI)} USDT`);
  await expect(page.getByTestId("receipt-address")).toHaveText(deployment().accounts.receipt);
  const before = await chain.balance("USDT", wallet);
  await page.getByRole("radio", { name: /^USDT/ }).check();
  await page.getByLabel("Quantity").selectOption("2");
  await page.getByRole("button", { name: "Buy", exact: true }).click();
  await waitForOutcome(page);
  expect(before - (await chain.balance("USDT", wallet))).toBe(2n * pse.price);
});

test("a whitelisted wallet sees the whitelist price and pays exactly it", async ({ page, createAccount, signIn }) => {
  test.setTimeout(90_000);
  const chain = chainReader();
  const wallet = await managedOnBox({ page, createAccount, signIn }, { BNB: 1, QUARK: 100 });
  await administer({ abi: blindBoxSaleAbi, functionName: "setWhitelisted", args: [[wallet], true] });
  const listed = await readVariant("whitelistPriceInToken", 5, wallet, "QUARK");
  expect(listed.kind).toBe(SALE_PRICE_KIND.whitelist);
  expect(listed.price).toBeLessThan(await chain.price(5, "QUARK"));

  await page.goto("/lootbox/5");
  await expect(page.getByTestId("price-reason")).toHaveText("Whitelist price");
  const before = await chain.balance("QUARK", wallet);
  await page.getByRole("radio", { name: /^QUARK/ }).check();
  await page.getByLabel("Quantity").selectOption("1");
  await page.getByRole("button", { name: "Buy", exact: true }).click();
  await waitForOutcome(page);
  expect(before - (await chain.balance("QUARK", wallet))).toBe(listed.price);
});

/** What the sale says `buyer` pays for one box (priceFor), checked against the variant's own query. */
async function readVariant(
  query: "psePriceInToken" | "whitelistPriceInToken",
  typeBox: number,
  buyer: Address,
  currency: "USDT" | "QUARK" = "USDT",
): Promise<{ price: bigint; kind: number }> {
  const { contracts } = deployment();
  const token = currency === "USDT" ? contracts.usdt : contracts.quark;
  const client = createPublicClient({ transport: http(E2E_RPC_URL) });
  const sale = { address: contracts.boxSale, abi: blindBoxSaleAbi } as const;
  const [[price, kind], variant] = await Promise.all([
    client.readContract({ ...sale, functionName: "priceFor", args: [buyer, BigInt(typeBox), token] }),
    client.readContract({ ...sale, functionName: query, args: [BigInt(typeBox), token] }),
  ]);
  expect(price).toBe(variant);
  return { price, kind };
}

test("Open N opens N boxes of the page's type by count, leaving the wallet's other types", async ({ page, createAccount, signIn }) => {
  test.setTimeout(60_000);
  const chain = chainReader();
  // The Epic box is forged last, so batchOpen(1) alone would take it: the page's Standard boxes are named by type.
  const wallet = await managedOnBox({ page, createAccount, signIn }, { BNB: 1, boxes: { 4: 2, 6: 1 } });
  await page.goto("/lootbox/4");
  await page.getByLabel("Boxes to open").selectOption("1");
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await waitForOutcome(page);
  await expect(page).toHaveTitle("Open 1 Standard loot box | Spark Era");
  await expect(page.getByRole("list", { name: "New items" }).getByTestId("opened-item")).toHaveCount(2);
  expect((await chain.boxes(wallet)).map((box) => box.typeBox).sort()).toEqual([4, 6]);
});
