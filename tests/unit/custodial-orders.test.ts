/**
 * The app's half of the web path (app/services/orders.server.ts): a managed wallet's order is built as the island
 * builds it, in the market's published domain, signed by the SSO, and posted with its signature, nonce and expiry;
 * a browser wallet's proof goes through untouched.
 */
import { type Address, type Hex, verifyTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { ChainOrder, OrderContext } from "~core/api/market";
import { LISTING_TYPES, listingOfOrder, listingTypedData } from "~core/trading";
import type { SignOrderRequest } from "~core/api/sso";
import { ACTION_ORDER_TTL_SECONDS, ORDER_TYPES, type OrderKind } from "~core/orders";
import { custodian, ordersApi } from "~/services/orders.server";
import type { BackendClient, RequestOptions } from "~/services/http-client.server";

const wallet = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const seller = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Address;
const context: OrderContext = {
  domain: { name: "Spark Era Market", version: "2", chainId: 31337, verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
  counter: "3",
};

/** A market that answers the order context and records posts, and an SSO that signs as the custodian would. */
function clients() {
  const posts: { path: string; body: Record<string, unknown> }[] = [];
  const signed: SignOrderRequest[] = [];
  const market: BackendClient = {
    get: async <T>() => context as T,
    post: async <T>(path: string, options?: RequestOptions) => {
      posts.push({ path, body: options!.body as Record<string, unknown> });
      return {} as T;
    },
  };
  const sso: BackendClient = {
    get: async () => {
      throw new Error("no GET to the SSO");
    },
    post: async <T>(_path: string, options?: RequestOptions) => {
      const request = options!.body as SignOrderRequest;
      signed.push(request);
      const kind = request.primaryType as OrderKind;
      const signature = await wallet.signTypedData({
        domain: request.domain,
        types: { [kind]: ORDER_TYPES[kind] },
        primaryType: kind,
        message: request.message,
      } as unknown as Parameters<typeof wallet.signTypedData>[0]);
      return { signature } as T;
    },
  };
  return { orders: ordersApi(market, sso), posts, signed };
}

describe("a managed wallet's order through the SSO", () => {
  it("signs a sell in the market's domain with the wallet's counter and the listing's lifetime, and posts the proof", async () => {
    const { orders, posts, signed } = clients();
    const before = Math.floor(Date.now() / 1000);
    await orders.sell({ tokenId: "42", nftType: 0 }, { address: wallet.address, price: "5000", currency: "FIRE" }, custodian(86_400));
    expect(signed).toHaveLength(1);
    expect(signed[0]).toMatchObject({
      primaryType: "Sell",
      domain: context.domain,
      message: { tokenId: "42", nftType: 0, seller: wallet.address, price: "5000", currency: "FIRE", counter: "3" },
    });
    expect(signed[0].idempotencyKey).toMatch(/^order-[0-9a-z]+$/);
    const body = posts[0].body;
    expect(posts[0].path).toBe("/api/v1/informationCenter/sellToken");
    expect(body.nonce).toBe(signed[0].message.nonce);
    expect(Number(body.expiry) - before).toBeGreaterThanOrEqual(86_400);
    expect(Number(body.expiry) - before).toBeLessThan(86_400 + 5);
    // What the market will rebuild from its records verifies.
    const valid = await verifyTypedData({
      address: wallet.address,
      domain: { name: "Spark Era Market", version: "2", chainId: 31337, verifyingContract: context.domain.verifyingContract },
      types: { Sell: ORDER_TYPES.Sell },
      primaryType: "Sell",
      message: {
        tokenId: 42n,
        nftType: 0,
        seller: wallet.address,
        price: 5000n,
        currency: "FIRE",
        counter: 3n,
        nonce: BigInt(body.nonce as string),
        expiry: BigInt(body.expiry as number),
      },
      signature: body.signature as `0x${string}`,
    });
    expect(valid).toBe(true);
  });

  it("signs a buy of the confirmed listing for the action's lifetime; without the listing it posts unsigned", async () => {
    const { orders, posts, signed } = clients();
    const ref = { tokenId: "7", nftType: 4 };
    await orders.buy(ref, { address: wallet.address, price: "9", listingId: "12", seller, currency: "USDT" }, custodian());
    expect(signed[0]).toMatchObject({
      primaryType: "Buy",
      message: { listingId: "12", seller, buyer: wallet.address, price: "9", currency: "USDT" },
    });
    expect(Number(signed[0].message.expiry) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(ACTION_ORDER_TTL_SECONDS);
    // seller and currency are only signed, never posted.
    expect(posts[0].body).not.toHaveProperty("seller");
    await orders.buy(ref, { address: wallet.address, price: "9", listingId: "12" }, custodian());
    expect(signed).toHaveLength(1);
    expect(posts[1].body).not.toHaveProperty("signature");
  });

  it("signs a cancel-all with the wallet's current counter when the form named none", async () => {
    const { orders, posts, signed } = clients();
    await orders.cancelAll(wallet.address, undefined, custodian());
    expect(signed[0]).toMatchObject({ primaryType: "CancelAll", message: { seller: wallet.address, counter: "3" } });
    expect(posts[0].body).toMatchObject({ address: wallet.address, counter: "3" });
  });

  it("passes a browser wallet's proof through, and asks the SSO nothing", async () => {
    const { orders, posts, signed } = clients();
    const proof = { nonce: "1", expiry: 2_000_000_000, signature: "0xab" as const, chainId: 31337 };
    await orders.transfer({ tokenId: "7", nftType: 4 }, { address: wallet.address, to: seller }, proof);
    await orders.cancel({ tokenId: "7", nftType: 4 }, wallet.address, undefined);
    expect(signed).toEqual([]);
    expect(posts[0].body).toMatchObject(proof);
    expect(posts[1].body).not.toHaveProperty("signature");
  });
});

describe("a chain listing (issue 28): one place builds it, the SSO signs a managed wallet's", () => {
  const trading = "0xa513E6E4b8f2a923D98304ec87F64353C4D5C853" as Address;
  const collection = "0x0165878A594ca255338adfa4d48449f69242Eb8F" as Address;
  const fire = "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707" as Address;
  const terms = { seller: wallet.address, collection, standard: 0, tokenId: "14", amount: 1n, currency: fire, price: 10n ** 19n } as const;
  /** `terms` as the SSO is asked to sign them and the market is sent them: numbers as decimal text. */
  const termsAsSent = { ...terms, amount: "1", price: "10000000000000000000" };

  /** A market that records posts, and an SSO that signs a Listing as the custodian would. */
  function listingClients() {
    const posts: Record<string, unknown>[] = [];
    const signed: SignOrderRequest[] = [];
    const market: BackendClient = {
      get: async () => {
        throw new Error("no GET to the market");
      },
      post: async <T>(_path: string, options?: RequestOptions) => {
        posts.push(options!.body as Record<string, unknown>);
        return {} as T;
      },
    };
    const sso: BackendClient = {
      get: market.get,
      post: async <T>(_path: string, options?: RequestOptions) => {
        const request = options!.body as SignOrderRequest;
        signed.push(request);
        const signature = await wallet.signTypedData({
          domain: request.domain,
          types: LISTING_TYPES,
          primaryType: "Listing",
          message: request.message,
        } as unknown as Parameters<typeof wallet.signTypedData>[0]);
        return { signature } as T;
      },
    };
    return { orders: ordersApi(market, sso), posts, signed };
  }

  it("builds a managed wallet's listing with a fresh salt, its counter and days, in the trading domain, and posts it signed", async () => {
    const { orders, posts, signed } = listingClients();
    const before = Math.floor(Date.now() / 1000);
    const custodial = { custodian: true as const, counter: 2n, ttlSeconds: 3 * 86_400, chainId: 31337, trading };
    await orders.chainSell(terms, custodial);
    await orders.chainSell(terms, custodial);
    expect(signed[0]).toMatchObject({
      primaryType: "Listing",
      domain: { name: "Spark Era Trading", version: "1", chainId: 31337, verifyingContract: trading },
      message: { ...termsAsSent, counter: "2" },
    });
    expect(signed[0].idempotencyKey).toBe(`listing-${BigInt(String(signed[0].message.salt)).toString(36)}`);
    expect(signed[1].message.salt).not.toBe(signed[0].message.salt);
    expect(Number(posts[0].expiry) - before).toBeGreaterThanOrEqual(3 * 86_400);
    expect(Number(posts[0].expiry) - before).toBeLessThan(3 * 86_400 + 5);
    // What the market checks verifies: the posted fields, signed by the seller in the trading domain.
    const { signature, ...fields } = posts[0];
    expect(fields).toEqual(signed[0].message);
    const listing = listingOfOrder({ ...(fields as unknown as ChainOrder), orderHash: "0x" });
    expect(
      await verifyTypedData({ address: wallet.address, ...listingTypedData(listing, 31337, trading), signature: signature as Hex }),
    ).toBe(true);
  });

  it("lists an amount of a SparkItems stack as ERC-1155: its SparkItems id and the amount, signed as they are posted", async () => {
    const { orders, posts, signed } = listingClients();
    const custodial = { custodian: true as const, counter: 0n, ttlSeconds: 86_400, chainId: 31337, trading };
    await orders.chainSell({ ...terms, standard: 1, tokenId: "8002", amount: 40n }, custodial);
    expect(signed[0].message).toMatchObject({ standard: 1, tokenId: "8002", amount: "40" });
    expect(posts[0]).toMatchObject({ standard: 1, tokenId: "8002", amount: "40", signature: expect.stringMatching(/^0x/) });
  });

  it("posts a browser wallet's listing with the salt, expiry, counter and signature it signed, and asks the SSO nothing", async () => {
    const { orders, posts, signed } = listingClients();
    const proof = { salt: "77", expiry: "1900000000", counter: "5", signature: `0x${"ab".repeat(65)}` as Hex };
    await orders.chainSell(terms, proof);
    expect(signed).toEqual([]);
    expect(posts[0]).toEqual({
      ...termsAsSent,
      expiry: "1900000000",
      salt: "77",
      counter: "5",
      signature: proof.signature,
    });
  });
});
