import { getAddress } from "viem";
import { gameBalances, getPage, hiddenForm, postForm, tokenDetail } from "../../fuzz/client";
import { type Account, expect, sessionCookie, test } from "../accounts";
import { WEI_PER_TOKEN } from "~core/money";

const BUYERS = 10;
const POSTS_PER_BUYER = 5;
const FUNDS = 10;
const PRICE = "7";
const WEI = WEI_PER_TOKEN;

test("50 concurrent buys of one listing through the detail page's action: one sale, and the balances add up", async ({
  baseURL,
  createAccount,
}) => {
  test.setTimeout(180_000);
  const base = baseURL!;

  /** A trade form posted as a browser without JavaScript would: it must end in the page's success redirect. */
  async function trade(cookie: string, url: string, fields: Record<string, string>, what: string) {
    const response = await postForm(base, url, cookie, fields);
    if (response.status !== 302) throw new Error(`${what}: ${response.status} ${(await response.text()).slice(0, 500)}`);
  }

  /** The form of `intent` on the page, read from its HTML (hidden fields included) as a browser without JavaScript sends it. */
  function formOf(html: string, intent: string, where: string) {
    const form = hiddenForm(html, intent);
    if (!form) throw new Error(`No ${intent} form on ${where}: ${html.slice(0, 300)}`);
    return { action: form.action ?? where, fields: form.fields };
  }

  /** "Buy" on the detail page, then the confirmation page's form, each with the hidden fields the page rendered. */
  async function confirmedBuyForm(cookie: string, url: string) {
    const buy = formOf(await getPage(base, url, cookie), "confirm-buy", url);
    const response = await postForm(base, buy.action, cookie, buy.fields);
    const html = await response.text();
    if (response.status !== 200) throw new Error(`Buy on ${url}: ${response.status} ${html.slice(0, 300)}`);
    return formOf(html, "buy", url);
  }

  // Accounts of this test's own: a seller with one item to sell, buyers with FUNDS FIRE each.
  const [seller, ...buyers] = await Promise.all([
    createAccount({ tag: "race-seller", stock: { items: { 7: 1 } } }),
    ...Array.from({ length: BUYERS }, () => createAccount({ tag: "race-buyer", stock: { balances: { FIRE: FUNDS } } })),
  ]);
  const cookies = new Map<Account, string>(
    await Promise.all([seller, ...buyers].map(async (account) => [account, await sessionCookie(base, account)] as const)),
  );
  const [item] = seller.items;
  const url = item.url;
  await trade(cookies.get(seller)!, url, { intent: "sell", price: PRICE, currency: "FIRE", days: "7" }, "the seller's listing");

  // FIRE is summed over every account in play, which only this test uses.
  const players = [seller, ...buyers];
  const fire = async (account: Account) => (await gameBalances(base, account.token)).FIRE ?? 0n;
  const before = await Promise.all(players.map(fire));

  // Every buyer confirms on the page, then all of them press "Confirm purchase" at once, several times each.
  const forms = await Promise.all(buyers.map((buyer) => confirmedBuyForm(cookies.get(buyer)!, url)));
  const answers = await Promise.all(
    buyers.flatMap((buyer, i) =>
      Array.from({ length: POSTS_PER_BUYER }, () => postForm(base, forms[i].action, cookies.get(buyer)!, forms[i].fields)),
    ),
  );
  const statuses = answers.map((answer) => answer.status);
  const sold = answers.filter((answer) => answer.status === 302);
  expect(sold, `statuses: ${statuses.join(" ")}`).toHaveLength(1);
  expect(sold[0].headers.get("location")).toBe(url);
  // The others reached the action and were refused by it (sold, or the listing changed): not by a limit or the CSRF check.
  expect(statuses.filter((status) => status !== 302 && status !== 400 && status !== 409)).toEqual([]);

  const after = await Promise.all(players.map(fire));
  const change = players.map((_, i) => after[i] - before[i]);
  expect(
    change.reduce((sum, delta) => sum + delta, 0n),
    "FIRE over the seller and buyers",
  ).toBe(0n);
  expect(change[0]).toBe(BigInt(PRICE) * WEI);
  const payers = buyers.filter((_, i) => change[i + 1] !== 0n);
  expect(payers).toHaveLength(1);
  expect(change[buyers.indexOf(payers[0]) + 1]).toBe(-BigInt(PRICE) * WEI);

  const detail = await tokenDetail(base, item);
  expect(getAddress(detail.ownerAddress)).toBe(getAddress(payers[0].wallet!));
  expect(detail.listing).toBeNull();
  const sinceListing = detail.history.slice(
    0,
    detail.history.findIndex((event) => event.event === "list"),
  );
  expect(sinceListing.map((event) => event.event)).toEqual(["sale"]);
});
