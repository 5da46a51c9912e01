/**
 * Counters without a hot row (decision 0034, issue 44 item 4): the counters every trade moves (the listing and page
 * generations, the listed cells, the sale rollups, the daily volume) stay exactly right when many clients trade at
 * once, and on PostgreSQL a trade takes no row lock that a trade on a listing of another shard needs: it neither
 * waits for one nor makes one wait.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BackendDb } from "../../backend/types";
import { type MarketDb, type Sql } from "../../backend/market/shared/db";
import { credit } from "../../backend/market/shared/ledger";
import { orderCounter } from "../../backend/market/trades/orders";
import { GRAINS } from "../../backend/market/shared/sale-days";
import { SHARDS, shardOf } from "../../backend/market/shared/shards";
import { LISTING_STATUS } from "../../backend/market/shared/tables";
import { buy, sell } from "../../backend/market/trades/trades";
import { TEST_ENGINE } from "./engine";
import { orderProofs, ownerOf } from "./direct-orders";
import { insertGameItem, seededMarketDb } from "./market-db-fixture";

/** Clients trading at once, each passing its own item between its own two wallets (as tests/bench/trades.ts). */
const CLIENTS = 8;
const ROUNDS = 4;
/** Two more items, for the lock test. */
const ITEMS = CLIENTS + 2;
const PRICE = 10n ** 15n;
const NFT_TYPE = 0;

const wallet = (client: number, side: number): `0x${string}` => `0x${(0xc0000 + client * 2 + side).toString(16).padStart(40, "0")}`;
const tokenId = (client: number) => `${700_000 + client}`;
const item = (client: number) => ({ nftType: NFT_TYPE, tokenId: tokenId(client) });

let store: BackendDb;
let db: MarketDb;
const order = orderProofs();

beforeAll(async () => {
  ({ store, db } = await seededMarketDb(async (tx, now) => {
    for (let c = 0; c < ITEMS; c++) {
      await insertGameItem(tx, item(c), wallet(c, 0), now);
      for (const side of [0, 1]) await credit(tx, wallet(c, side), "FIRE", PRICE * 1000n);
    }
  }));
});
afterAll(() => store?.close());

/** The sell of client `c`'s item by `seller`, in the transaction `tx`, under the seller's current counter. */
async function sellIn(tx: Sql, c: number, seller: `0x${string}`, counter: bigint) {
  const input = { ...item(c), ownerAddress: seller, address: seller, price: PRICE, currency: "FIRE" as const, counter };
  return (await sell(tx, ownerOf(seller), input, order(), Date.now())).listingId;
}

async function buyIn(tx: Sql, c: number, listingId: number, buyer: `0x${string}`) {
  await buy(tx, ownerOf(buyer), { ...item(c), listingId, price: PRICE, address: buyer }, order(), Date.now());
}

/** One trade: client `c`'s item from `seller` to `buyer` (two write transactions, as the app runs them). */
async function trade(c: number, seller: `0x${string}`, buyer: `0x${string}`) {
  const counter = await orderCounter(db, seller);
  const listingId = await db.write((tx) => sellIn(tx, c, seller, counter));
  await db.write((tx) => buyIn(tx, c, listingId, buyer));
}

/** Every counter as a reader sees it, summed over its shards. */
async function figures() {
  const sum = async (sql: string) => Number((await db.get<{ n: number | string | null }>(sql))!.n ?? 0);
  const volume = await db.all<{ volume: string; trades: number }>("select volume, trades from market_daily_volume");
  const rollups = async (table: string) =>
    Promise.all(
      GRAINS.map(async (_, grain) => {
        const rows = await db.all<{ sales: number; volume: string }>(`select sales, volume from ${table} where grain = ?`, [grain]);
        return { sales: rows.reduce((n, r) => n + Number(r.sales), 0), volume: rows.reduce((n, r) => n + BigInt(r.volume), 0n) };
      }),
    );
  return {
    listingGeneration: await sum("select sum(value) as n from market_listing_generation_slots"),
    pageGeneration: await sum("select sum(value) as n from market_page_generation_slots"),
    trades: volume.reduce((n, r) => n + Number(r.trades), 0),
    volume: volume.reduce((n, r) => n + BigInt(r.volume), 0n),
    days: await rollups("market_sale_days"),
    hours: await rollups("market_sale_hours"),
  };
}

/** The listed cells, per cell and shard, and the same recounted from the active listings. */
async function listedCells() {
  const kept = await db.all<{ grain: number; shard: number; listed: number }>(
    "select grain, shard, sum(listed) as listed from market_listed_cells group by grain, shard having sum(listed) <> 0 order by grain, shard",
  );
  const active = await db.all<{ id: number }>("select id from market_listings where status = 0");
  const recount = GRAINS.flatMap((_, grain) =>
    Array.from({ length: SHARDS }, (__, shard) => ({
      grain,
      shard,
      listed: active.filter((listing) => shardOf(listing.id) === shard).length,
    })).filter((cell) => cell.listed > 0),
  );
  return { kept: kept.map((c) => ({ grain: Number(c.grain), shard: Number(c.shard), listed: Number(c.listed) })), recount };
}

describe("counters without a hot row", () => {
  it(`stay exactly right when ${CLIENTS} clients trade at once`, async () => {
    const before = await figures();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let round = 0; round < ROUNDS; round++) {
          const [seller, buyer] = round % 2 === 0 ? [wallet(c, 0), wallet(c, 1)] : [wallet(c, 1), wallet(c, 0)];
          await trade(c, seller, buyer);
        }
      }),
    );
    const after = await figures();
    const trades = CLIENTS * ROUNDS;
    // Each trade inserts a listing and sells it: two listing changes, each moving both generations by exactly 1.
    expect(after.listingGeneration - before.listingGeneration).toBe(2 * trades);
    expect(after.pageGeneration - before.pageGeneration).toBe(2 * trades);
    expect(after.trades - before.trades).toBe(trades);
    expect(after.volume - before.volume).toBe(PRICE * BigInt(trades));
    for (const unit of ["days", "hours"] as const) {
      expect(after[unit].map((cell, grain) => cell.sales - before[unit][grain].sales)).toEqual(GRAINS.map(() => trades));
      expect(after[unit].map((cell, grain) => cell.volume - before[unit][grain].volume)).toEqual(GRAINS.map(() => PRICE * BigInt(trades)));
    }
    const cells = await listedCells();
    expect(cells.kept).toEqual(cells.recount);
    // The trades' listings spread over every shard: no one row took every trade.
    const listings = await db.all<{ id: number }>("select id from market_listings where nft_type = ?", [NFT_TYPE]);
    expect(new Set(listings.map((l) => shardOf(l.id))).size).toBe(SHARDS);
    const shards = await db.all<{ shard: number }>("select distinct shard from market_sale_days");
    expect(shards.length).toBe(SHARDS);
  });

  it.runIf(TEST_ENGINE === "postgres")(
    "a sell and a buy wait on no row that a trade on a listing of another shard holds (PostgreSQL)",
    async () => {
      const [a, b] = [CLIENTS, CLIENTS + 1];
      /**
       * Runs `first` in a transaction held open once it is done, then `second` in another transaction, which may wait
       * on no lock (lock_timeout: waiting fails it with 55P03 instead of hanging), then lets the first commit.
       */
      async function whileHeld<A, B>(first: (tx: Sql) => Promise<A>, second: (tx: Sql) => Promise<B>): Promise<[A, B]> {
        let done!: (value: A) => void;
        const firstDone = new Promise<A>((resolve) => (done = resolve));
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        const held = db.write(async (tx) => {
          const value = await first(tx);
          done(value);
          await released;
          return value;
        });
        const firstValue = await Promise.race([firstDone, held]);
        try {
          const secondValue = await db.write(async (tx) => {
            await tx.run("set local lock_timeout = '3s'");
            return await second(tx);
          });
          return [firstValue, secondValue];
        } finally {
          release();
          await held;
        }
      }

      const counters = [await orderCounter(db, wallet(a, 0)), await orderCounter(db, wallet(b, 0))];
      const [first, second] = await whileHeld(
        (tx) => sellIn(tx, a, wallet(a, 0), counters[0]),
        (tx) => sellIn(tx, b, wallet(b, 0), counters[1]),
      );
      // Listing ids come in order: the two listings are of different shards.
      expect(shardOf(second)).not.toBe(shardOf(first));
      await whileHeld(
        (tx) => buyIn(tx, a, first, wallet(a, 1)),
        (tx) => buyIn(tx, b, second, wallet(b, 1)),
      );
      const sold = await db.all<{ id: number; status: number }>("select id, status from market_listings where id in (?, ?) order by id", [
        first,
        second,
      ]);
      expect(sold.map((l) => Number(l.status))).toEqual([LISTING_STATUS.sold, LISTING_STATUS.sold]);
      const cells = await listedCells();
      expect(cells.kept).toEqual(cells.recount);
    },
  );
});
