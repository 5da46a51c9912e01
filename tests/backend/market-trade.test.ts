/** The product §4 listing state machine with game balances, favorites and views, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListingRecord, Page } from "~core/api/market";
import { BROWSER, BUYER, MANAGED, type Market, signOrder, startMarket } from "./market-fixture";
import { WEI_PER_TOKEN } from "~core/money";

const SESSION_EXPIRED = "Invalid session, or session has expired, please log in again.";
const TOKEN = WEI_PER_TOKEN;

let m: Market;
beforeAll(async () => {
  m = await startMarket();
});
afterAll(() => m.close());

/** An item of `owner` that is in the game and not on sale. */
async function heldItem(owner: string, nftType?: number): Promise<{ nftType: number; tokenId: string }> {
  const row = (await m.t.store.sql.get(
    `select nft_type as "nftType", token_id as "tokenId" from market_items i
       where owner_address = ? and location = 0 ${nftType === undefined ? "" : `and nft_type = ${nftType}`}
         and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0)
       order by id limit 1`,
    [owner],
  )) as { nftType: number; tokenId: string } | undefined;
  if (!row) throw new Error(`no held item of ${owner}`);
  return row;
}

async function balances(token: string): Promise<Record<string, bigint>> {
  const data = await m.ok<{ balances: Record<string, string> }>("/gameRelate/getGameToken", { gameTag: 1 }, token);
  return Object.fromEntries(Object.entries(data.balances).map(([currency, wei]) => [currency, BigInt(wei)]));
}

const detail = (ref: { nftType: number; tokenId: string }, address?: string) =>
  m.ok<ListingRecord & { listing: { id: number; price: string; currency: string; sellerAddress: string } | null; isOwner?: boolean }>(
    "/informationCenter/tokenDetailByTokenId",
    { ...ref, address },
  );

describe("sell → cancel → sell → buy", () => {
  it("walks every transition with its checks, moving ownership and balances once", async () => {
    const { browser, buyer, managed } = m.tokens;
    const item = await heldItem(BROWSER.wallet, 0);
    const firstPrice = 250n * TOKEN;
    const sellProof = await signOrder(m, "Sell", (ctx) => ({
      tokenId: BigInt(item.tokenId),
      nftType: item.nftType,
      seller: BROWSER.wallet,
      price: firstPrice,
      currency: "FIRE",
      counter: BigInt(ctx.counter),
    }));
    const sellBody = { ...item, ownerAddress: BROWSER.wallet, address: BROWSER.wallet, price: firstPrice.toString(), ...sellProof };
    const cancelProof = () => signOrder(m, "Cancel", { tokenId: BigInt(item.tokenId), nftType: item.nftType, seller: BROWSER.wallet });

    // Refusals before anything changes.
    const anonymous = await m.post("/informationCenter/sellToken", {}, sellBody);
    expect(anonymous).toMatchObject({ status: 401, msg: SESSION_EXPIRED });
    expect((await m.post("/informationCenter/sellToken", {}, { ...sellBody, signature: undefined }, browser)).msg).toMatch(/^signature: /);
    expect((await m.post("/informationCenter/sellToken", {}, { ...sellBody, address: MANAGED.wallet }, browser)).status).toBe(403);
    expect((await m.post("/informationCenter/sellToken", {}, { ...sellBody, ownerAddress: MANAGED.wallet }, browser)).status).toBe(400);
    for (const price of ["0", "1.5", "-3", "1e18", ""]) {
      const answer = await m.post("/informationCenter/sellToken", {}, { ...sellBody, price }, browser);
      expect(answer.status, price).toBe(400);
      expect(answer.msg).toMatch(/^price: /);
    }
    const notMine = await heldItem(MANAGED.wallet);
    expect((await m.post("/informationCenter/sellToken", {}, { ...sellBody, ...notMine }, browser)).status).toBe(403);
    expect((await m.post("/informationCenter/sellToken", {}, { ...sellBody, tokenId: "999999999" }, browser)).status).toBe(404);

    // The total of a filter is counted once per change of the market (backend/market/listings/query.ts): each transition must show.
    const sellerTotal = async () => (await m.page("/marketplace/tradingMarket", { nftType: item.nftType, currency: "FIRE" })).total;
    const totalBefore = await sellerTotal();
    expect(await sellerTotal()).toBe(totalBefore);

    // held → on sale (FIRE by default).
    const listed = await m.post<ListingRecord>("/informationCenter/sellToken", {}, sellBody, browser);
    expect(listed.status, listed.msg).toBe(200);
    expect(listed.data).toMatchObject({ isSelling: true, price: sellBody.price, currency: "FIRE", sellerAddress: BROWSER.wallet });
    const newest = await m.page("/marketplace/tradingMarket", { pageSize: 1 });
    expect(newest.records[0].tokenId).toBe(item.tokenId);
    const selling = await m.page("/informationCenter/selling", { address: BROWSER.wallet, pageSize: 100 });
    expect(selling.records.map((r) => r.tokenId)).toContain(item.tokenId);
    expect((await detail(item)).listing).toMatchObject({ price: sellBody.price, currency: "FIRE", sellerAddress: BROWSER.wallet });
    const firstListing = (await detail(item)).listing!.id;

    expect(await sellerTotal()).toBe(totalBefore + 1);

    // No double sell.
    const twice = await m.post("/informationCenter/sellToken", {}, sellBody, browser);
    expect(twice).toMatchObject({ status: 409, msg: "The item is already on sale" });

    // on sale → held: the seller only, once.
    const cancelBody = { ...item, address: BUYER.wallet };
    expect((await m.custodial("/informationCenter/cancelSell", cancelBody, buyer)).status).toBe(403);
    const cancelled = await m.post<ListingRecord>(
      "/informationCenter/cancelSell",
      {},
      { ...item, address: BROWSER.wallet, ...(await cancelProof()) },
      browser,
    );
    expect(cancelled.status, cancelled.msg).toBe(200);
    expect(cancelled.data).toMatchObject({ isSelling: false, price: null, ownerAddress: BROWSER.wallet });
    expect(await sellerTotal()).toBe(totalBefore);
    const again = await m.post(
      "/informationCenter/cancelSell",
      {},
      { ...item, address: BROWSER.wallet, ...(await cancelProof()) },
      browser,
    );
    expect(again).toMatchObject({ status: 409, msg: "The item is not on sale" });
    const buyHeld = await m.custodial(
      "/informationCenter/buyToken",
      { ...item, listingId: firstListing, address: BUYER.wallet, price: sellBody.price },
      buyer,
    );
    expect(buyHeld).toMatchObject({ status: 409, msg: "The item is not on sale" });

    // held → on sale again, in USDT.
    const price = 123_456_789_000_000_000_000n;
    const relistProof = await signOrder(m, "Sell", (ctx) => ({
      tokenId: BigInt(item.tokenId),
      nftType: item.nftType,
      seller: BROWSER.wallet,
      price,
      currency: "USDT",
      counter: BigInt(ctx.counter),
    }));
    const relisted = await m.post<ListingRecord>(
      "/informationCenter/sellToken",
      {},
      { ...sellBody, ...relistProof, price: price.toString(), currency: "usdt" },
      browser,
    );
    expect(relisted.data).toMatchObject({ isSelling: true, price: price.toString(), currency: "USDT" });
    const listingId = (await detail(item)).listing!.id;
    expect(listingId).toBeGreaterThan(firstListing);

    // on sale → sold, after the buyer-side checks.
    const own = await m.post(
      "/informationCenter/buyToken",
      {},
      { ...item, listingId, address: BROWSER.wallet, price: price.toString() },
      browser,
    );
    expect(own).toMatchObject({ status: 400, msg: "You cannot buy your own item" });
    const stale = await m.custodial(
      "/informationCenter/buyToken",
      { ...item, listingId, address: BUYER.wallet, price: (price + 1n).toString() },
      buyer,
    );
    expect(stale.status).toBe(409);
    expect(stale.msg).toContain(price.toString());

    const before = { seller: await balances(browser), buyer: await balances(buyer) };
    const rebatesBefore = await rebate(browser, "USDT");
    const volumeBefore = await todayVolume();
    const bought = await m.custodial<ListingRecord>(
      "/informationCenter/buyToken",
      { ...item, listingId, address: BUYER.wallet, price: price.toString() },
      buyer,
    );
    expect(bought.status, bought.msg).toBe(200);
    expect(bought.data).toMatchObject({ ownerAddress: BUYER.wallet, isSelling: false, price: null });
    const after = { seller: await balances(browser), buyer: await balances(buyer) };
    expect(after.buyer.USDT).toBe(before.buyer.USDT - price);
    expect(after.seller.USDT).toBe(before.seller.USDT + price);
    for (const currency of ["FIRE", "QUARK", "BNB"]) {
      expect(after.buyer[currency]).toBe(before.buyer[currency]);
      expect(after.seller[currency]).toBe(before.seller[currency]);
    }

    // A sold listing cannot be bought again.
    const late = await m.custodial(
      "/informationCenter/buyToken",
      { ...item, listingId, address: MANAGED.wallet, price: price.toString() },
      managed,
    );
    expect(late).toMatchObject({ status: 409, msg: "Already sold" });

    // The trade shows up everywhere it should.
    expect((await detail(item, BUYER.wallet)).isOwner).toBe(true);
    const activity = await m.ok<Page<{ tokenId: string; event: string; price: string; buyerAddress: string }>>("/statistics/activity", {
      pageSize: 1,
    });
    expect(activity.records[0]).toMatchObject({
      tokenId: item.tokenId,
      event: "sale",
      price: price.toString(),
      buyerAddress: BUYER.wallet,
    });
    const storage = await m.page("/informationCenter/myStorage", { address: BUYER.wallet, nftType: item.nftType, pageSize: 100 });
    expect(storage.records.map((r) => r.tokenId)).toContain(item.tokenId);
    // The buyer joined through the browser wallet's invite: its inviter earns 1 %.
    expect(await rebate(browser, "USDT")).toBe(rebatesBefore + price / 100n);
    const volumeAfter = await todayVolume();
    expect(volumeAfter.trades).toBe(volumeBefore.trades + 1);
    expect(volumeAfter.usdt).toBe(volumeBefore.usdt + price);
  });

  it("refuses a purchase the buyer's game balance cannot cover, changing nothing", async () => {
    const item = await heldItem(MANAGED.wallet, 4);
    const price = (10n ** 12n * TOKEN).toString();
    const sold = await m.custodial(
      "/informationCenter/sellToken",
      { ...item, ownerAddress: MANAGED.wallet, address: MANAGED.wallet, price, currency: "BNB" },
      m.tokens.managed,
    );
    expect(sold.status, sold.msg).toBe(200);
    const before = await balances(m.tokens.buyer);
    const listingId = (await detail(item)).listing!.id;
    const answer = await m.custodial("/informationCenter/buyToken", { ...item, listingId, address: BUYER.wallet, price }, m.tokens.buyer);
    expect(answer).toMatchObject({ status: 400, msg: "Transaction failed. You do not have enough balance." });
    expect(await balances(m.tokens.buyer)).toEqual(before);
    expect((await detail(item)).listing?.price).toBe(price);
  });

  it("sells a listing once when two buyers race", async () => {
    const item = await heldItem(MANAGED.wallet, 7);
    const price = (5n * TOKEN).toString();
    await m.custodial(
      "/informationCenter/sellToken",
      { ...item, ownerAddress: MANAGED.wallet, address: MANAGED.wallet, price },
      m.tokens.managed,
    );
    const listingId = (await detail(item)).listing!.id;
    const answers = await Promise.all([
      m.custodial("/informationCenter/buyToken", { ...item, listingId, address: BUYER.wallet, price }, m.tokens.buyer),
      m.post(
        "/informationCenter/buyToken",
        {},
        {
          ...item,
          listingId,
          address: BROWSER.wallet,
          price,
          ...(await signOrder(m, "Buy", {
            tokenId: BigInt(item.tokenId),
            nftType: item.nftType,
            listingId: BigInt(listingId),
            seller: MANAGED.wallet,
            buyer: BROWSER.wallet,
            price: BigInt(price),
            currency: "FIRE",
          })),
        },
        m.tokens.browser,
      ),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.msg).toBe("Already sold");
    expect(
      await m.scalar(
        "select count(*) from market_listings l join market_items i on i.id = l.item_id where i.token_id = ? and i.nft_type = 7 and l.status = 1",
        item.tokenId,
      ),
    ).toBe(1);
  });

  it("takes a listing whose signed expiry passed off the market", async () => {
    const item = await heldItem(MANAGED.wallet, 5);
    const expiry = Math.floor(Date.now() / 1000) + 3600;
    const price = (7n * TOKEN).toString();
    const sold = await m.custodial(
      "/informationCenter/sellToken",
      { ...item, ownerAddress: MANAGED.wallet, address: MANAGED.wallet, price, expiry },
      m.tokens.managed,
    );
    expect(sold.status, sold.msg).toBe(200);
    const listingId = (await detail(item)).listing!.id;
    const past = await m.custodial(
      "/informationCenter/sellToken",
      { ...(await heldItem(MANAGED.wallet, 5)), ownerAddress: MANAGED.wallet, address: MANAGED.wallet, price, expiry: 1000 },
      m.tokens.managed,
    );
    expect(past.msg).toMatch(/^expiry: /);
    // Time passes.
    await m.t.store.sql.run("update market_listings set expiry = ? where token_id = ? and nft_type = 5 and status = 0", [
      expiry - 7200,
      item.tokenId,
    ]);
    const eggs = await m.page("/marketplace/tradingMarket", { nftType: 5, pageSize: 100 });
    expect(eggs.records.map((r) => r.tokenId)).not.toContain(item.tokenId);
    const buy = await m.custodial("/informationCenter/buyToken", { ...item, listingId, address: BUYER.wallet, price }, m.tokens.buyer);
    expect(buy).toMatchObject({ status: 409, msg: "The item is not on sale" });
  });
});

async function rebate(token: string, currency: string): Promise<bigint> {
  const info = await m.ok<{ totals: { currency: string; earned: string }[] }>("/informationCenter/showRebateInfo", {}, token);
  return BigInt(info.totals.find((t) => t.currency === currency)!.earned);
}

async function todayVolume() {
  const data = await m.ok<{ series: { trades: number; volume: Record<string, string> }[] }>("/statistics/volume", { days: 1 });
  return { trades: data.series[0].trades, usdt: BigInt(data.series[0].volume.USDT) };
}

describe("favorites", () => {
  it("adds and removes idempotently, for the caller's own wallet only", async () => {
    const { browser } = m.tokens;
    const item = await heldItem(MANAGED.wallet, 2);
    const query = { ...item, address: BROWSER.wallet };
    const start = (await detail(item)).favorites;
    expect(await m.post("/informationCenter/favorite/add", query)).toMatchObject({ status: 401 });
    expect((await m.post("/informationCenter/favorite/add", { ...query, address: MANAGED.wallet }, undefined, browser)).status).toBe(403);
    expect((await m.post("/informationCenter/favorite/add", { ...query, tokenId: "987654321" }, undefined, browser)).status).toBe(404);

    for (let i = 0; i < 2; i++) {
      const added = await m.post("/informationCenter/favorite/add", query, undefined, browser);
      expect(added.data).toMatchObject({ isFavorite: true, favorites: start + 1 });
    }
    expect((await detail(item, BROWSER.wallet)).isFavorite).toBe(true);
    const favorites = await m.page("/informationCenter/myFavorite", { address: BROWSER.wallet, pageSize: 100 });
    expect(favorites.records.some((r) => r.tokenId === item.tokenId && r.nftType === item.nftType)).toBe(true);

    for (let i = 0; i < 2; i++) {
      const removed = await m.post("/informationCenter/favorite/remove", query, undefined, browser);
      expect(removed.data).toMatchObject({ isFavorite: false, favorites: start });
    }
    expect((await detail(item, BROWSER.wallet)).isFavorite).toBe(false);
  });
});

describe("views", () => {
  it("counts one view per visitor per day", async () => {
    const item = await heldItem(BUYER.wallet, 0);
    const start = (await detail(item)).views;
    const anonymous = await m.post("/marketplace/token/views/add", item);
    expect(anonymous.data).toMatchObject({ counted: true, views: start + 1 });
    expect((await m.post("/marketplace/token/views/add", item)).data).toMatchObject({ counted: false, views: start + 1 });
    // A logged-in visitor is told apart by wallet.
    expect((await m.post("/marketplace/token/views/add", item, undefined, m.tokens.browser)).data).toMatchObject({
      counted: true,
      views: start + 2,
    });
    expect((await m.post("/marketplace/token/views/add", item, undefined, m.tokens.browser)).data).toMatchObject({ counted: false });
    expect((await m.post("/marketplace/token/views/add", { ...item, tokenId: "x" })).status).toBe(400);
  });

  it("leaves the listing generation (the market count cache's key) alone, unlike listing changes", async () => {
    const generation = async () =>
      Number(((await m.t.store.sql.get("select sum(value) as value from market_listing_generation_slots")) as { value: number }).value);
    const listed = (await m.t.store.sql.get(
      'select nft_type as "nftType", token_id as "tokenId", id from market_listings where status = 0 and nft_type <> 8 order by id limit 1',
    )) as { nftType: number; tokenId: string; id: number };
    const before = await generation();
    expect((await m.post("/marketplace/token/views/add", { nftType: listed.nftType, tokenId: listed.tokenId })).status).toBe(200);
    expect(await generation()).toBe(before);
    await m.t.store.sql.run("update market_listings set level = level where id = ?", [listed.id]);
    expect(await generation()).toBe(before + 1);
  });

  it("checks ownerAddress for materials", async () => {
    const material = await heldItem(BUYER.wallet, 8);
    expect((await m.post("/marketplace/token/views/add", { ...material, ownerAddress: BUYER.wallet })).status).toBe(200);
    expect((await m.post("/marketplace/token/views/add", { ...material, ownerAddress: BROWSER.wallet })).status).toBe(404);
  });
});
