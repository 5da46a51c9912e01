/**
 * One listing, 50 buys at once over the three servers (issue 27): exactly one sale, 49 clear refusals (a 4xx in the
 * product's words, never a 5xx), and the game's money conserved to the wei.
 */
import { describe, expect, it } from "vitest";
import { type Address, getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { WEI_PER_TOKEN } from "~core/money";
import { type OrderKind, type OrderMessages, expiryIn, newOrderNonce, orderLifetimeSeconds, orderTypedData } from "~core/orders";
import { readWei } from "../../backend/market/shared/money";
import { type TestAccount, createAccount, superviseCluster, nth, servers, sharedDatabase, spread, stock } from "./support";

superviseCluster();
const database = sharedDatabase();

const API = "/api/v1";
const BUYERS = 10;
const BUYS = 50;
const PRICE = 25n * WEI_PER_TOKEN;
/** What a losing buy may be told (docs/api/market.md): the item was sold, or changed hands while this buy ran. */
const REFUSALS = ["Already sold", "The item has changed hands since you looked. Please reload the page.", "The item is not on sale"];

interface OrderContext {
  domain: { chainId: number; verifyingContract: Address };
  counter: string;
}

/** A browser wallet's signature of an order, with the nonce and expiry the request carries. */
async function signed<K extends OrderKind>(
  account: TestAccount,
  url: string,
  kind: K,
  message: (ctx: OrderContext) => Omit<OrderMessages[K], "nonce" | "expiry">,
) {
  const ctx = await account.client.ok<OrderContext>(url, `${API}/marketplace/orderContext?address=${account.wallet}`);
  const nonce = newOrderNonce();
  const expiry = expiryIn(orderLifetimeSeconds(kind));
  const full = { ...message(ctx), nonce, expiry } as OrderMessages[K];
  const signer = privateKeyToAccount(account.key!);
  const signature = await signer.signTypedData(
    orderTypedData(ctx.domain, kind, full) as unknown as Parameters<typeof signer.signTypedData>[0],
  );
  return { signature, nonce: nonce.toString(), expiry: Number(expiry) };
}

describe("buys of one listing across processes", () => {
  it("sells it once: one sale, 49 refusals in the product's words, money conserved", async () => {
    const list = await servers();
    const store = database();
    const seller = await createAccount(nth(list, 0).url, { wallet: "browser", tag: "seller" });
    const buyers = await Promise.all(
      Array.from({ length: BUYERS }, (_, i) => createAccount(list[i % list.length].url, { wallet: "browser", tag: "buyer" })),
    );
    const [item] = await stock(store, seller.wallet, { items: { 0: 1 } });
    for (const buyer of buyers) await stock(store, buyer.wallet, { balances: { FIRE: 100 } });

    const tokenId = item.tokenId;
    const nftType = item.nftType;
    const sell = await signed(seller, nth(list, 1).url, "Sell", (ctx) => ({
      tokenId: BigInt(tokenId),
      nftType,
      seller: seller.wallet,
      price: PRICE,
      currency: "FIRE",
      counter: BigInt(ctx.counter),
    }));
    await seller.client.ok(nth(list, 1).url, `${API}/informationCenter/sellToken`, {
      token: seller.token,
      json: { tokenId, nftType, ownerAddress: seller.wallet, address: seller.wallet, price: PRICE.toString(), currency: "FIRE", ...sell },
    });
    const detail = await seller.client.ok<{ listing: { id: number } | null }>(
      nth(list, 2).url,
      `${API}/informationCenter/tokenDetailByTokenId?tokenId=${tokenId}&nftType=${nftType}`,
    );
    const listingId = detail.listing!.id;

    const everyone = [seller.wallet, ...buyers.map((buyer) => buyer.wallet)];
    const balances = async () => {
      const rows = await store.sql.all<{ address: string; amount: string }>(
        `select address, amount from market_balances where currency = 'FIRE' and address in (${everyone.map(() => "?").join(", ")})`,
        everyone,
      );
      return new Map(rows.map((row) => [getAddress(row.address), readWei(row.amount)]));
    };
    const total = (map: Map<Address, bigint>) => [...map.values()].reduce((sum, amount) => sum + amount, 0n);
    const before = await balances();

    // Each buyer's orders signed first, so the 50 posts leave together.
    const orders = await Promise.all(
      Array.from({ length: BUYS }, async (_, i) => {
        const buyer = buyers[i % BUYERS];
        const proof = await signed(buyer, list[i % list.length].url, "Buy", () => ({
          tokenId: BigInt(tokenId),
          nftType,
          listingId: BigInt(listingId),
          seller: seller.wallet,
          buyer: buyer.wallet,
          price: PRICE,
          currency: "FIRE",
        }));
        return { buyer, json: { address: buyer.wallet, tokenId, nftType, listingId, price: PRICE.toString(), ...proof } };
      }),
    );
    const answers = await spread(list, BUYS, (server, i) =>
      orders[i].buyer.client.request(server.url, `${API}/informationCenter/buyToken`, {
        token: orders[i].buyer.token,
        json: orders[i].json,
      }),
    );

    const summary = answers.map((answer, i) => `#${i} server ${i % list.length}: ${answer.status} ${answer.body.msg}`).join("\n");
    const sold = answers.flatMap((answer, i) => (answer.status === 200 ? [i] : []));
    expect(sold, summary).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status !== 200);
    for (const answer of refused) {
      expect(answer.status, summary).toBeGreaterThanOrEqual(400);
      expect(answer.status, summary).toBeLessThan(500);
      expect(REFUSALS, summary).toContain(answer.body.msg);
    }
    expect(refused).toHaveLength(BUYS - 1);

    // The winner holds the item, paid once; the seller got the price once; no wei appeared or vanished.
    const winner = orders[sold[0]].buyer.wallet;
    const after = await balances();
    expect(total(after)).toBe(total(before));
    expect(after.get(winner)).toBe(before.get(winner)! - PRICE);
    expect(after.get(seller.wallet)).toBe((before.get(seller.wallet) ?? 0n) + PRICE);
    for (const buyer of buyers) if (buyer.wallet !== winner) expect(after.get(buyer.wallet)).toBe(before.get(buyer.wallet));
    const owner = await store.sql.get<{ owner_address: string }>(
      "select owner_address from market_items where token_id = ? and nft_type = ?",
      [tokenId, nftType],
    );
    expect(getAddress(owner!.owner_address)).toBe(winner);
  });
});
