/** Signed orders (EIP-712): every way an order can be wrong is refused with a clear 4xx, and races sell once. */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { recoverTypedDataAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expiryIn, newOrderNonce, orderTypedData, type SellMessage } from "~core/orders";
import { bumpOrderCounter } from "../../backend/market/trades/orders";
import { BROWSER, BUYER, MANAGED, heldItem as heldItemOf, type Market, signOrder, startMarket } from "./market-fixture";
import { WEI_PER_TOKEN } from "~core/money";

const TOKEN = WEI_PER_TOKEN;
let m: Market;
beforeAll(async () => {
  m = await startMarket();
});
afterAll(() => m.close());

const heldItem = (owner: string, nftType: number) => heldItemOf(m, owner, nftType);

const sellMessage = (item: { nftType: number; tokenId: string }, price: bigint, counter = 0n): Omit<SellMessage, "nonce" | "expiry"> => ({
  tokenId: BigInt(item.tokenId),
  nftType: item.nftType,
  seller: BROWSER.wallet,
  price,
  currency: "FIRE",
  counter,
});

const LISTING_CHANGED = "This listing has changed. Please review the new price and try again.";
/** The Buy type before orders named their listing (domain version 1). */
const LEGACY_BUY_TYPE = [
  { name: "tokenId", type: "uint256" },
  { name: "nftType", type: "uint8" },
  { name: "buyer", type: "address" },
  { name: "price", type: "uint256" },
  { name: "currency", type: "string" },
  { name: "nonce", type: "uint256" },
  { name: "expiry", type: "uint256" },
] as const;

async function activeListingId(item: { nftType: number; tokenId: string }): Promise<number> {
  return await m.scalar("select id from market_listings where nft_type = ? and token_id = ? and status = 0", item.nftType, item.tokenId);
}

async function listAsBrowser(item: { nftType: number; tokenId: string }, price: bigint) {
  const proof = await signOrder(m, "Sell", (ctx) => sellMessage(item, price, BigInt(ctx.counter)));
  const answer = await m.post(
    "/informationCenter/sellToken",
    {},
    { ...item, ownerAddress: BROWSER.wallet, address: BROWSER.wallet, price: price.toString(), ...proof },
    m.tokens.browser,
  );
  expect(answer.status, answer.msg).toBe(200);
}

describe("order signatures", () => {
  it("refuses a forged signature, another signer, a replayed nonce, an expired order and the wrong chain", async () => {
    const item = await heldItem(BROWSER.wallet, 0);
    const price = 3n * TOKEN;
    const body = { ...item, ownerAddress: BROWSER.wallet, address: BROWSER.wallet, price: price.toString() };
    const post = (extra: object) => m.post("/informationCenter/sellToken", {}, { ...body, ...extra }, m.tokens.browser);

    const good = await signOrder(m, "Sell", (ctx) => sellMessage(item, price, BigInt(ctx.counter)));
    expect(await post({ ...good, signature: `0x${"ab".repeat(65)}` })).toMatchObject({
      status: 403,
      msg: "The signature is not valid for this order",
    });
    expect(await post({ ...good, signature: "0x1234" })).toMatchObject({ status: 403 });
    const stranger = await signOrder(m, "Sell", (ctx) => sellMessage(item, price, BigInt(ctx.counter)), {
      privateKey: generatePrivateKey(),
    });
    expect(await post(stranger)).toMatchObject({ status: 403, msg: "The signature is not valid for this order" });
    // Signed for one price, sent with another: the server rebuilds the order from what it is asked to do.
    expect(await post({ ...good, price: (price + 1n).toString() })).toMatchObject({ status: 403 });
    const expired = await signOrder(m, "Sell", (ctx) => sellMessage(item, price, BigInt(ctx.counter)), { ttlSeconds: -5 });
    expect(await post(expired)).toMatchObject({ status: 400, msg: "The order has expired. Please sign it again." });
    expect(await post({ ...good, chainId: 56 })).toMatchObject({ status: 400, msg: "Wrong chain id" });
    expect(await post({ signature: good.signature })).toMatchObject({ status: 400, msg: "nonce and expiry: required with a signature" });

    expect(await post(good)).toMatchObject({ status: 200 });
    // The listing keeps a signature that recovers to the seller.
    const stored = (await m.t.store.sql.get(
      "select signature, nonce, expiry from market_listings where token_id = ? and nft_type = ? and status = 0",
      [item.tokenId, item.nftType],
    )) as { signature: `0x${string}`; nonce: string; expiry: number };
    expect(stored.signature).toBe(good.signature);

    // Cancel, then replay the very same sell order: its nonce is spent.
    const cancel = await signOrder(m, "Cancel", { tokenId: BigInt(item.tokenId), nftType: item.nftType, seller: BROWSER.wallet });
    expect(
      await m.post("/informationCenter/cancelSell", {}, { ...item, address: BROWSER.wallet, ...cancel }, m.tokens.browser),
    ).toMatchObject({ status: 200 });
    expect(
      await m.post("/informationCenter/cancelSell", {}, { ...item, address: BROWSER.wallet, ...cancel }, m.tokens.browser),
    ).toMatchObject({ status: 409 });
    expect(await post(good)).toMatchObject({ status: 409, msg: "This order has already been used" });
  });

  it("refuses a changed price and a sold item bought again", async () => {
    const item = await heldItem(BROWSER.wallet, 4);
    const price = 2n * TOKEN;
    await listAsBrowser(item, price);
    const listingId = await activeListingId(item);
    const stale = await m.custodial(
      "/informationCenter/buyToken",
      { ...item, listingId, address: BUYER.wallet, price: (price / 2n).toString() },
      m.tokens.buyer,
    );
    expect(stale.status).toBe(409);
    expect(stale.msg).toMatch(/^The price has changed/);
    expect(
      await m.custodial(
        "/informationCenter/buyToken",
        { ...item, listingId, address: BUYER.wallet, price: price.toString() },
        m.tokens.buyer,
      ),
    ).toMatchObject({ status: 200 });
    const again = await m.custodial(
      "/informationCenter/buyToken",
      { ...item, listingId, address: MANAGED.wallet, price: price.toString() },
      m.tokens.managed,
    );
    expect(again).toMatchObject({ status: 409, msg: "Already sold" });
  });

  it("binds a Buy to one listing: refused for a relisting of the same item by another seller at the same price", async () => {
    const item = await heldItem(MANAGED.wallet, 4);
    const price = TOKEN;
    const body = { ...item, ownerAddress: MANAGED.wallet, address: MANAGED.wallet, price: price.toString() };
    expect((await m.custodial("/informationCenter/sellToken", body, m.tokens.managed)).status).toBe(200);
    const first = await activeListingId(item);
    const buyFirst = await signOrder(m, "Buy", {
      tokenId: BigInt(item.tokenId),
      nftType: item.nftType,
      listingId: BigInt(first),
      seller: MANAGED.wallet,
      buyer: BROWSER.wallet,
      price,
      currency: "FIRE",
    });

    // The seller takes it off the market and gives it away; the new owner lists it at the same price.
    const cancel = await m.custodial("/informationCenter/cancelSell", { ...item, address: MANAGED.wallet }, m.tokens.managed);
    expect(cancel.status, cancel.msg).toBe(200);
    const moved = await m.custodial(
      "/informationCenter/transferToken",
      { ...item, address: MANAGED.wallet, to: BUYER.wallet },
      m.tokens.managed,
    );
    expect(moved.status, moved.msg).toBe(200);
    const relist = await m.custodial(
      "/informationCenter/sellToken",
      { ...body, ownerAddress: BUYER.wallet, address: BUYER.wallet },
      m.tokens.buyer,
    );
    expect(relist.status, relist.msg).toBe(200);
    const second = await activeListingId(item);
    expect(second).not.toBe(first);

    const buy = (extra: object, token = m.tokens.browser, address: string = BROWSER.wallet) =>
      m.post("/informationCenter/buyToken", {}, { ...item, address, price: price.toString(), ...extra }, token);
    // The unused signature for the first listing buys neither the new listing nor, named, the old one.
    expect(await buy({ ...buyFirst, listingId: second })).toMatchObject({ status: 403, msg: "The signature is not valid for this order" });
    expect(await buy({ ...buyFirst, listingId: first })).toMatchObject({ status: 409, msg: LISTING_CHANGED });
    // A managed wallet's stale page (the first listing's id) is refused too, though its custodian signed it.
    expect(
      await m.custodial(
        "/informationCenter/buyToken",
        { ...item, address: MANAGED.wallet, price: price.toString(), listingId: first },
        m.tokens.managed,
      ),
    ).toMatchObject({ status: 409, msg: LISTING_CHANGED });
    expect(await buy({ ...buyFirst })).toMatchObject({ status: 400, msg: "listingId: required: the id of the listing you are buying" });

    // An order in the old format (domain version 1, no seller or listing) never verifies, even for the current listing.
    const ctx = await m.ok<{ domain: { chainId: number; verifyingContract: `0x${string}` } }>("/marketplace/orderContext");
    const nonce = newOrderNonce();
    const expiry = expiryIn(600);
    const legacy = await privateKeyToAccount(BROWSER.privateKey as `0x${string}`).signTypedData({
      domain: { name: "Spark Era Market", version: "1", ...ctx.domain },
      types: { Buy: LEGACY_BUY_TYPE },
      primaryType: "Buy",
      message: { tokenId: BigInt(item.tokenId), nftType: item.nftType, buyer: BROWSER.wallet, price, currency: "FIRE", nonce, expiry },
    });
    expect(await buy({ signature: legacy, nonce: nonce.toString(), expiry: Number(expiry), listingId: second })).toMatchObject({
      status: 403,
    });

    // Signed for the new listing, it buys.
    const buySecond = await signOrder(m, "Buy", {
      tokenId: BigInt(item.tokenId),
      nftType: item.nftType,
      listingId: BigInt(second),
      seller: BUYER.wallet,
      buyer: BROWSER.wallet,
      price,
      currency: "FIRE",
    });
    const bought = await buy({ ...buySecond, listingId: second });
    expect(bought.status, bought.msg).toBe(200);
  });

  it("signs managed-wallet orders with the custodial key (web path)", async () => {
    const item = await heldItem(MANAGED.wallet, 7);
    const price = 4n * TOKEN;
    const answer = await m.custodial(
      "/informationCenter/sellToken",
      { ...item, ownerAddress: MANAGED.wallet, address: MANAGED.wallet, price: price.toString() },
      m.tokens.managed,
    );
    expect(answer.status, answer.msg).toBe(200);
    const stored = (await m.t.store.sql.get(
      "select signature, nonce, expiry from market_listings where token_id = ? and nft_type = ? and status = 0",
      [item.tokenId, item.nftType],
    )) as { signature: `0x${string}`; nonce: string; expiry: number };
    const ctx = await m.ok<{ domain: { chainId: number; verifyingContract: `0x${string}` } }>("/marketplace/orderContext");
    const signer = await recoverTypedDataAddress({
      ...(orderTypedData(ctx.domain, "Sell", {
        ...sellMessage(item, price),
        seller: MANAGED.wallet,
        nonce: BigInt(stored.nonce),
        expiry: BigInt(stored.expiry),
      }) as unknown as Parameters<typeof recoverTypedDataAddress>[0]),
      signature: stored.signature,
    });
    expect(signer).toBe(MANAGED.wallet);
  });

  it("transfers to another wallet, never to the sender, and the listing dies with the move", async () => {
    const item = await heldItem(BROWSER.wallet, 7);
    await listAsBrowser(item, 9n * TOKEN);
    const transfer = (to: string, proof: object) =>
      m.post("/informationCenter/transferToken", {}, { ...item, address: BROWSER.wallet, to, ...proof }, m.tokens.browser);
    const toSelf = await signOrder(m, "Transfer", {
      tokenId: BigInt(item.tokenId),
      nftType: item.nftType,
      from: BROWSER.wallet,
      to: BROWSER.wallet,
    });
    expect(await transfer(BROWSER.wallet, toSelf)).toMatchObject({
      status: 400,
      msg: "The address cannot be the same as the address of the sender",
    });
    expect(await transfer(BUYER.wallet.toLowerCase().replace("0x3c", "0x3C"), toSelf)).toMatchObject({ status: 400 });
    const proof = await signOrder(m, "Transfer", {
      tokenId: BigInt(item.tokenId),
      nftType: item.nftType,
      from: BROWSER.wallet,
      to: BUYER.wallet,
    });
    const moved = await transfer(BUYER.wallet, proof);
    expect(moved.status, moved.msg).toBe(200);
    expect(moved.data).toMatchObject({ ownerAddress: BUYER.wallet, isSelling: false });
  });

  it("cancels all of a wallet's listings with one signed counter bump", async () => {
    const items = [await heldItem(BROWSER.wallet, 8), await heldItem(BROWSER.wallet, 5)];
    for (const item of items) await listAsBrowser(item, TOKEN);
    const held = await heldItem(BROWSER.wallet, 2);
    const oldOrder = await signOrder(m, "Sell", (ctx) => sellMessage(held, TOKEN, BigInt(ctx.counter)));
    const ctx = await m.ok<{ counter: string }>("/marketplace/orderContext", { address: BROWSER.wallet });
    const proof = await signOrder(m, "CancelAll", { seller: BROWSER.wallet, counter: BigInt(ctx.counter) });
    const answer = await m.post<{ cancelled: number; counter: string }>(
      "/informationCenter/cancelAllSell",
      {},
      { address: BROWSER.wallet, counter: ctx.counter, ...proof },
      m.tokens.browser,
    );
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data.cancelled).toBeGreaterThanOrEqual(2);
    expect(BigInt(answer.data.counter)).toBe(BigInt(ctx.counter) + 1n);
    const selling = await m.page("/informationCenter/selling", { address: BROWSER.wallet, pageSize: 100 });
    expect(selling.total).toBe(0);
    // An order signed under the old counter no longer verifies.
    const item = await heldItem(BROWSER.wallet, 2);
    const stale = await m.post(
      "/informationCenter/sellToken",
      {},
      { ...item, ownerAddress: BROWSER.wallet, address: BROWSER.wallet, price: TOKEN.toString(), ...oldOrder },
      m.tokens.browser,
    );
    expect(stale.status).toBe(403);
  });

  it("refuses a cancel-all under a counter the wallet never had, past any count included, with a 409", async () => {
    const ctx = await m.ok<{ counter: string }>("/marketplace/orderContext", { address: BROWSER.wallet });
    for (const counter of [BigInt(ctx.counter) + 5n, 6_033_640_959_174_429_624_802n]) {
      const proof = await signOrder(m, "CancelAll", { seller: BROWSER.wallet, counter });
      const answer = await m.post(
        "/informationCenter/cancelAllSell",
        {},
        { address: BROWSER.wallet, counter: counter.toString(), ...proof },
        m.tokens.browser,
      );
      expect(answer.status, counter.toString()).toBe(409);
    }
    expect((await m.ok<{ counter: string }>("/marketplace/orderContext", { address: BROWSER.wallet })).counter).toBe(ctx.counter);
  });

  it("starts a new wallet's counter at 0: only a cancel-all under 0 moves it", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    expect(await bumpOrderCounter(m.t.store.sql, wallet, 5n)).toBe(false);
    expect(await bumpOrderCounter(m.t.store.sql, wallet, 0n)).toBe(true);
    expect(await bumpOrderCounter(m.t.store.sql, wallet, 0n)).toBe(false);
    expect(await bumpOrderCounter(m.t.store.sql, wallet, 1n)).toBe(true);
  });
});

describe("50 concurrent buys of one listing", () => {
  it("sell exactly once and neither create nor lose money", async () => {
    const item = await heldItem(MANAGED.wallet, 0);
    const price = 1n * TOKEN;
    expect(
      (
        await m.custodial(
          "/informationCenter/sellToken",
          { ...item, ownerAddress: MANAGED.wallet, address: MANAGED.wallet, price: price.toString() },
          m.tokens.managed,
        )
      ).status,
    ).toBe(200);
    const listingId = await activeListingId(item);
    const ledgerSum = async () =>
      (await m.t.store.sql.all("select amount from market_balances where currency = 'FIRE'")).reduce(
        (sum: bigint, row) => sum + BigInt((row as { amount: string }).amount),
        0n,
      );
    const before = await ledgerSum();
    const soldCount = async () =>
      await m.scalar(
        "select count(*) from market_listings l join market_items i on i.id = l.item_id where i.token_id = ? and i.nft_type = ? and l.status = 1",
        item.tokenId,
        item.nftType,
      );
    const soldBefore = await soldCount();
    const buyers = [
      { token: m.tokens.buyer, address: BUYER.wallet, signed: false },
      { token: m.tokens.browser, address: BROWSER.wallet, signed: true },
    ];
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const buyer = buyers[i % 2];
        const proof = buyer.signed
          ? await signOrder(m, "Buy", {
              tokenId: BigInt(item.tokenId),
              nftType: item.nftType,
              listingId: BigInt(listingId),
              seller: MANAGED.wallet,
              buyer: BROWSER.wallet,
              price,
              currency: "FIRE",
            })
          : {};
        const body = { ...item, listingId, address: buyer.address, price: price.toString(), ...proof };
        return buyer.signed
          ? m.post("/informationCenter/buyToken", {}, body, buyer.token)
          : m.custodial("/informationCenter/buyToken", body, buyer.token);
      }),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 409 && a.msg === "Already sold")).toBe(true);
    expect(await ledgerSum()).toBe(before);
    expect(await soldCount()).toBe(soldBefore + 1);
  });
});
