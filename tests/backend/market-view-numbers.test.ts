/** The numbers of a market view and price history (issue 30 parts 2 and 3), against direct computations over the seeded market. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PriceHistory, ViewNumbers } from "~core/api/market";
import { NFT_TYPE } from "~core/nft";
import { listingQuerySchema } from "../../backend/market/shared/listing-schemas";
import { DAY, priceHistory, viewNumbers } from "../../backend/market/stats/view-numbers";
import type { Sql } from "../../backend/market/shared/db";
import { type Market, startMarket } from "./market-fixture";

let m: Market;
let db: Sql;
beforeAll(async () => {
  m = await startMarket();
  db = m.t.store.sql as Sql;
});
afterAll(() => m.close());

interface Sale {
  price: bigint;
  currency: string;
  at: number;
  nftType: number;
  rarity: number | null;
  itemId: number;
}

async function allSales(): Promise<Sale[]> {
  const rows = await db.all<{ price: string; currency: string; at: number; nft_type: number; rarity: number | null; item_id: number }>(
    "select a.price, a.currency, a.at, l.nft_type, l.rarity, a.item_id from market_activity a join market_listings l on l.id = a.listing_id where a.kind = 1",
  );
  return rows.map((r) => ({
    price: BigInt(r.price),
    currency: r.currency,
    at: Number(r.at),
    nftType: Number(r.nft_type),
    rarity: r.rarity === null ? null : Number(r.rarity),
    itemId: Number(r.item_id),
  }));
}

const cards = (s: { nftType: number; rarity: number | null }) => s.nftType === 0 && [1, 2].includes(s.rarity ?? -1);
const query = (input: Record<string, unknown>) => listingQuerySchema.parse(input);

describe("view numbers", () => {
  it("floor per currency and the listed count equal a direct computation over the view's listings", async () => {
    const numbers = await viewNumbers(db, query({ nftType: "0", rarity: "1,2" }), Date.now());
    const listings = await db.all<{ price: string; currency: string }>(
      "select price, currency from market_listings where status = 0 and nft_type = 0 and rarity in (1, 2)",
    );
    expect(numbers.listed.total).toBe(listings.length);
    const floors = new Map<string, { price: bigint; listed: number }>();
    for (const l of listings) {
      const old = floors.get(l.currency);
      const price = BigInt(l.price);
      floors.set(l.currency, { price: old && old.price < price ? old.price : price, listed: (old?.listed ?? 0) + 1 });
    }
    expect(floors.size).toBeGreaterThan(1);
    expect(new Map(numbers.floor.map((f) => [f.currency, { price: BigInt(f.price), listed: f.listed }]))).toEqual(floors);
  });

  it("a view sorted by stats is of spaceships: its floor too, not the whole market's", async () => {
    const now = Date.now();
    const [sorted, ships] = await Promise.all([
      viewNumbers(db, query({ sort: "total" }), now),
      viewNumbers(db, query({ nftType: String(NFT_TYPE.spaceship) }), now),
    ]);
    expect(ships.floor.length).toBeGreaterThan(0);
    expect([sorted.floor, sorted.listed]).toEqual([ships.floor, ships.listed]);
  });

  it("counts each window's sales and volume per currency at an injected clock, and says when a sale leaves a window", async () => {
    const sales = (await allSales()).filter(cards);
    expect(sales.length).toBeGreaterThan(3);
    // The clock just after the third newest sale: the newer ones are in the future then, the older ones age out.
    const byTime = [...sales].sort((a, b) => b.at - a.at);
    for (const now of [byTime[2].at + 1, byTime[0].at + 3 * DAY]) {
      const numbers: ViewNumbers = await viewNumbers(db, query({ nftType: "0", rarity: "1,2" }), now);
      for (const [window, ms] of [
        ["24h", DAY],
        ["7d", 7 * DAY],
      ] as const) {
        const inWindow = sales.filter((s) => s.at > now - ms && s.at <= now);
        const volume = new Map<string, bigint>();
        for (const s of inWindow) volume.set(s.currency, (volume.get(s.currency) ?? 0n) + s.price);
        const got = numbers.windows.find((w) => w.window === window)!;
        expect(got.sales).toBe(inWindow.length);
        expect(new Map(got.volume.map((v) => [v.currency, BigInt(v.amount)]))).toEqual(volume);
      }
      const last = byTime.find((s) => s.at <= now)!;
      expect(numbers.lastSale).toMatchObject({
        price: last.price.toString(),
        currency: last.currency,
        at: new Date(last.at).toISOString(),
      });
      const leaves = [
        ...sales.filter((s) => s.at > now - DAY && s.at <= now).map((s) => s.at + DAY),
        ...sales.filter((s) => s.at > now - 7 * DAY && s.at <= now).map((s) => s.at + 7 * DAY),
      ];
      expect(numbers.changesAt).toBe(leaves.length ? new Date(Math.min(...leaves)).toISOString() : null);
    }
  });

  it("a view's kept numbers change the moment a sale leaves a window, with no change to the market", async () => {
    const sales = (await allSales()).filter(cards);
    const latest = Math.max(...sales.map((s) => s.at));
    const view = query({ nftType: "0", rarity: "1,2" });
    const before = await viewNumbers(db, view, latest + 1);
    const window = (n: ViewNumbers) => n.windows.find((w) => w.window === "24h")!.sales;
    const inDay = sales.filter((s) => s.at > latest + 1 - DAY && s.at <= latest + 1).length;
    expect(window(before)).toBe(inDay);
    expect(window(await viewNumbers(db, view, latest + 2))).toBe(inDay);
    // The newest sale leaves the 24 h window at latest + DAY.
    expect(window(await viewNumbers(db, view, latest + DAY))).toBe(sales.filter((s) => s.at > latest && s.at <= latest + DAY).length);
  });

  it("a view with no listings and no sales has empty numbers", async () => {
    const numbers = await viewNumbers(db, query({ nftType: "0", min: { price: "1" }, max: { price: "1" } }), Date.now());
    expect(numbers).toMatchObject({ floor: [], listed: { total: 0, capped: false }, lastSale: null, changesAt: null });
    expect(numbers.windows.map((w) => w.sales)).toEqual([0, 0]);
  });
});

describe("price history", () => {
  it("buckets a view's sales by UTC day and currency: count, cheapest and dearest", async () => {
    const sales = (await allSales()).filter(cards);
    const now = Math.max(...sales.map((s) => s.at)) + 1;
    const history: PriceHistory = await priceHistory(db, { query: query({ nftType: "0", rarity: "1,2" }) }, "30d", now);
    expect(history).toMatchObject({ bucketDays: 1, buckets: 30 });
    const from = Date.parse(history.from);
    expect(from % DAY).toBe(0);
    expect(from).toBe((Math.floor(now / DAY) - 29) * DAY);
    const expected = new Map<string, { sales: number; low: bigint; high: bigint }>();
    for (const s of sales.filter((s) => s.at >= from && s.at <= now)) {
      const key = `${s.currency}:${Math.floor((s.at - from) / DAY)}`;
      const old = expected.get(key);
      expected.set(key, {
        sales: (old?.sales ?? 0) + 1,
        low: old && old.low < s.price ? old.low : s.price,
        high: old && old.high > s.price ? old.high : s.price,
      });
    }
    const got = new Map(
      history.series.flatMap((c) =>
        c.points.map((p) => [`${c.currency}:${p.index}`, { sales: p.sales, low: BigInt(p.low), high: BigInt(p.high) }] as const),
      ),
    );
    expect(expected.size).toBeGreaterThan(0);
    expect(got).toEqual(expected);
  });

  it("an item's history holds its own sales; 'all' starts at the first sale in at most 30 buckets", async () => {
    const sales = await allSales();
    const itemId = sales[0].itemId;
    const own = sales.filter((s) => s.itemId === itemId);
    const now = Math.max(...own.map((s) => s.at)) + 400 * DAY;
    const history = await priceHistory(db, { itemId }, "all", now);
    expect(history.buckets).toBeLessThanOrEqual(30);
    expect(Date.parse(history.from)).toBe(Math.floor(Math.min(...own.map((s) => s.at)) / DAY) * DAY);
    expect(history.series.flatMap((c) => c.points).reduce((n, p) => n + p.sales, 0)).toBe(own.length);
    expect(history.changesAt).toBe(new Date((Math.floor(now / DAY) + 1) * DAY).toISOString());
    // 7 days a year later: none of them.
    expect((await priceHistory(db, { itemId }, "7d", now)).series).toEqual([]);
  });

  it("answers over HTTP and refuses a bad period or a token without its type", async () => {
    const history = await m.ok<PriceHistory>("/marketplace/priceHistory", { period: "90d", nftType: 0 });
    expect(history).toMatchObject({ period: "90d", bucketDays: 3, buckets: 30 });
    expect((await m.get("/marketplace/priceHistory", { period: "1y" })).msg).toMatch(/^period: /);
    expect((await m.get("/marketplace/priceHistory", { tokenId: "1" })).msg).toMatch(/^nftType: /);
    expect((await m.get("/marketplace/priceHistory", { tokenId: "999999999", nftType: 0 })).status).toBe(404);
    const numbers = await m.ok<ViewNumbers>("/marketplace/viewNumbers", { nftType: 0, currency: "FIRE" });
    expect(numbers.floor.every((f) => f.currency === "FIRE")).toBe(true);
    expect((await m.get("/marketplace/viewNumbers", { rarity: "x" })).status).toBe(400);
  });
});
