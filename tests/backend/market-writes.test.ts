/**
 * Decision 0010: the market's writes hold without one writer at a time. A writer that read before another committed
 * is played here by a MarketDb whose chosen reads answer what they answered earlier (a stale snapshot); only the
 * writes' own conditions can then keep the ledger right.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { newOrderNonce } from "~core/orders";
import type { Currency } from "~core/money";
import { MarketDb, type Sql } from "../../backend/market/shared/db";
import { addDailyVolume } from "../../backend/market/shared/activity";
import { utcDay } from "../../backend/market/shared/sale-days";
import { claimRebate } from "../../backend/market/invites/invites";
import { claimSigner } from "../../backend/market/claims/claims";
import { testBackendOptions } from "./harness";
import { balanceOf, credit, debit } from "../../backend/market/shared/ledger";
import { LISTING_CHANGED_MESSAGE } from "~core/orders";
import { marketPageGeneration } from "../../backend/market/trades/page-generation";
import { nextSequenceValue } from "../../backend/market/shared/sequences";
import { SHARDS, shardOf } from "../../backend/market/shared/shards";
import type { TokenOwner } from "../../backend/market/shared/token-owners";
import { buy, sell } from "../../backend/market/trades/trades";
import { orderCounter } from "../../backend/market/trades/orders";
import { BROWSER, BUYER, MANAGED, type Market, startMarket } from "./market-fixture";

const ACTIVE_LISTING = "select * from market_listings where item_id = ? and status = 0";
const BALANCE = "select amount from market_balances where address = ? and currency = ?";

/** Transactions whose frozen reads answer once more what they answered when frozen. */
class StaleReads {
  private readonly frozen = new Map<string, unknown>();

  constructor(private readonly db: MarketDb) {}

  async freeze(sql: string, params: readonly unknown[]): Promise<void> {
    this.frozen.set(sql + JSON.stringify(params), await this.db.get(sql, params));
  }

  /** The database, whose frozen reads outside a transaction also answer as frozen, once. */
  asDb(): MarketDb {
    return new Proxy(this.db, {
      get: (target, name, receiver) => {
        if (name !== "get") return Reflect.get(target, name, receiver);
        return async <R>(sql: string, params: readonly unknown[] = []) => {
          const key = sql + JSON.stringify(params);
          if (!this.frozen.has(key)) return target.get<R>(sql, params);
          const stale = this.frozen.get(key) as R | undefined;
          this.frozen.delete(key);
          return stale;
        };
      },
    });
  }

  write<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.db.write((tx) =>
      fn({
        engine: tx.engine,
        all: (sql, params) => tx.all(sql, params),
        run: (sql, params) => tx.run(sql, params),
        lockSubject: (subject) => tx.lockSubject(subject),
        get: async <R>(sql: string, params: readonly unknown[] = []) => {
          const key = sql + JSON.stringify(params);
          if (!this.frozen.has(key)) return tx.get<R>(sql, params);
          const stale = this.frozen.get(key) as R | undefined;
          this.frozen.delete(key);
          return stale;
        },
      }),
    );
  }
}

let m: Market;
let db: MarketDb;
beforeAll(async () => {
  m = await startMarket();
  db = new MarketDb(m.t.store);
});
afterAll(() => m?.close());

const owner = (wallet: string): TokenOwner => ({
  userName: wallet,
  email: `${wallet}@test`,
  walletAddress: getAddress(wallet),
  bindAddrType: 1,
});
const order = () => ({ nonce: newOrderNonce(), expiry: BigInt(Math.floor(Date.now() / 1000) + 3600), signature: "0xsigned" });

async function heldItem(wallet: string): Promise<{ id: number; nftType: number; tokenId: string }> {
  return (await m.t.store.sql.get(
    `select id, nft_type as "nftType", token_id as "tokenId" from market_items i where owner_address = ? and location = 0
       and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0) order by id limit 1`,
    [wallet],
  )) as { id: number; nftType: number; tokenId: string };
}

async function listed(price: bigint, currency: Currency = "FIRE") {
  const item = await heldItem(BROWSER.wallet);
  const input = { tokenId: item.tokenId, nftType: item.nftType, ownerAddress: BROWSER.wallet, address: BROWSER.wallet, price, currency };
  const counter = await orderCounter(db, BROWSER.wallet);
  const { listingId } = await db.write((tx) => sell(tx, owner(BROWSER.wallet), { ...input, counter }, order(), Date.now()));
  return { item, listingId };
}

const wallets = [BROWSER.wallet, BUYER.wallet, MANAGED.wallet];
const total = async (currency: Currency) => {
  let sum = 0n;
  for (const wallet of wallets) sum += await balanceOf(db, wallet, currency);
  return sum;
};

describe("buying", () => {
  it("sells a listing once when a second buyer's checks read it before the first sale", async () => {
    const price = 7n;
    const { item, listingId } = await listed(price);
    await db.write(async (tx) => {
      await credit(tx, BUYER.wallet, "FIRE", price);
      await credit(tx, MANAGED.wallet, "FIRE", price);
    });
    const late = new StaleReads(db);
    await late.freeze(ACTIVE_LISTING, [item.id]);
    const input = { tokenId: item.tokenId, nftType: item.nftType, listingId, price };
    await db.write((tx) => buy(tx, owner(BUYER.wallet), { ...input, address: BUYER.wallet }, order(), Date.now()));
    const before = { total: await total("FIRE"), managed: await balanceOf(db, MANAGED.wallet, "FIRE") };

    const second = late.write((tx) => buy(tx, owner(MANAGED.wallet), { ...input, address: MANAGED.wallet }, order(), Date.now()));
    await expect(second).rejects.toMatchObject({ status: 409, message: "Already sold" });
    expect(await balanceOf(db, MANAGED.wallet, "FIRE")).toBe(before.managed);
    expect(await total("FIRE")).toBe(before.total);
    expect(await m.scalar("select buyer_address from market_listings where id = ?", listingId)).toBe(BUYER.wallet);
    expect(await m.scalar<string>("select owner_address from market_items where id = ?", item.id)).toBe(BUYER.wallet);
  });

  it("refuses a buy whose confirmed price the listing no longer has, though its checks read the old one", async () => {
    const { item, listingId } = await listed(5n);
    await db.write((tx) => credit(tx, BUYER.wallet, "FIRE", 5n));
    const late = new StaleReads(db);
    await late.freeze(ACTIVE_LISTING, [item.id]);
    await m.t.store.sql.run("update market_listings set price = ? where id = ?", [9n.toString().padStart(78, "0"), listingId]);
    const before = await total("FIRE");
    const input = { tokenId: item.tokenId, nftType: item.nftType, listingId, price: 5n, address: BUYER.wallet };
    await expect(late.write((tx) => buy(tx, owner(BUYER.wallet), input, order(), Date.now()))).rejects.toMatchObject({
      status: 409,
      message: LISTING_CHANGED_MESSAGE,
    });
    expect(await total("FIRE")).toBe(before);
    expect(await m.scalar("select status from market_listings where id = ?", listingId)).toBe(0);
  });
});

describe("balances", () => {
  it("loses no credit that another writer made between a balance's read and its write", async () => {
    const start = await balanceOf(db, BUYER.wallet, "QUARK");
    const late = new StaleReads(db);
    await late.freeze(BALANCE, [BUYER.wallet, "QUARK"]);
    await db.write((tx) => credit(tx, BUYER.wallet, "QUARK", 7n));
    await late.write((tx) => credit(tx, BUYER.wallet, "QUARK", 3n));
    expect(await balanceOf(db, BUYER.wallet, "QUARK")).toBe(start + 10n);
  });

  it("refuses a debit that a balance read before another debit would have allowed", async () => {
    const wallet = "0x00000000000000000000000000000000000000d1";
    await db.write((tx) => credit(tx, wallet, "BNB", 10n ** 30n));
    const late = new StaleReads(db);
    await late.freeze(BALANCE, [wallet, "BNB"]);
    await db.write((tx) => debit(tx, wallet, "BNB", 10n ** 30n - 1n));
    await expect(late.write((tx) => debit(tx, wallet, "BNB", 10n ** 30n))).rejects.toMatchObject({ status: 400 });
    expect(await balanceOf(db, wallet, "BNB")).toBe(1n);
  });
});

describe("the daily volume", () => {
  it("loses no trade that another writer added between the day's read and its write", async () => {
    const VOLUME = "select volume from market_daily_volume where day = ? and nft_type = ? and currency = ? and shard = ?";
    const at = Date.UTC(2020, 0, 2, 12);
    // Three sales of listings of one shard (3, 11, 19): they meet on one row.
    await db.write((tx) => addDailyVolume(tx, at, 9, "USDT", 5n, 3));
    const late = new StaleReads(db);
    await late.freeze(VOLUME, [utcDay(at), 9, "USDT", 3]);
    await db.write((tx) => addDailyVolume(tx, at, 9, "USDT", 7n, 11));
    await late.write((tx) => addDailyVolume(tx, at, 9, "USDT", 11n, 19));
    const row = await m.t.store.sql.get(
      "select volume, trades from market_daily_volume where day = ? and nft_type = 9 and currency = 'USDT'",
      [utcDay(at)],
    );
    expect(row).toEqual({ volume: "23", trades: 3 });
  });
});

describe("claim nonces", () => {
  const claim = async () => {
    const answer = await m.post<{ txId: string }>("/gameRelate/takeOutTokenSign", { fire: "1", gameTag: 1 }, undefined, m.tokens.browser);
    expect(answer.status, answer.msg).toBe(200);
    return Number(answer.data.txId);
  };

  it("never signs a nonce twice, even once the highest claim's row is gone", async () => {
    const first = await claim();
    await m.t.store.sql.run("delete from market_claims where id = ?", [first]);
    const second = await claim();
    expect(second).toBeGreaterThan(first);
    const third = await db.write((tx) => nextSequenceValue(tx, "claim_nonce"));
    expect(third).toBe(second + 1);
    expect(await claim()).toBe(third + 1);
  });
});

describe("the page generation", () => {
  it("is split over several rows, its sum moves on every bump, and a listing's change bumps its own slot", async () => {
    const slots = await m.scalar("select count(*) from market_page_generation_slots");
    expect(Number(slots)).toBe(SHARDS);
    const listings = (await m.t.store.sql.all("select id from market_listings where status = 0 order by id limit 16")) as { id: number }[];
    const slot = async (n: number) => Number(await m.scalar("select value from market_page_generation_slots where slot = ?", n));
    let generation = await marketPageGeneration(db);
    for (const listing of listings) {
      const before = await slot(shardOf(listing.id));
      await m.t.store.sql.run("update market_listings set price = price where id = ?", [listing.id]);
      const next = await marketPageGeneration(db);
      expect(next).toBe(generation + 1);
      expect(await slot(shardOf(listing.id))).toBe(before + 1);
      generation = next;
    }
  });
});

describe("a rebate claim", () => {
  const REBATE = "select earned, claimed from market_rebate_balances where address = ? and currency = ?";
  const wallet = "0x00000000000000000000000000000000000fee01";
  const market = () => ({ db, options: testBackendOptions, signer: claimSigner(testBackendOptions) });
  const awards = () => m.scalar("select count(*) from market_awards where account = ?", wallet);

  it("is signed once: a claim that read the rebate before another claim took it is refused", async () => {
    await m.t.store.sql.run("insert into market_rebate_balances (address, currency, earned, claimed) values (?, 'FIRE', '500', '0')", [
      wallet,
    ]);
    const stale = new StaleReads(db);
    await stale.freeze(REBATE, [wallet, "FIRE"]);
    expect((await claimRebate(market(), wallet, "FIRE", Date.now())).amount).toBe("500");
    await expect(claimRebate({ ...market(), db: stale.asDb() }, wallet, "FIRE", Date.now())).rejects.toMatchObject({ status: 409 });
    expect(await awards()).toBe(1);
    // An award is paid on chain: the game balance does not move.
    expect(await balanceOf(db, wallet, "FIRE")).toBe(0n);
  });

  it("leaves what was earned meanwhile to claim next", async () => {
    await m.t.store.sql.run("update market_rebate_balances set earned = '800' where address = ? and currency = 'FIRE'", [wallet]);
    expect((await claimRebate(market(), wallet, "FIRE", Date.now())).amount).toBe("300");
    expect(await awards()).toBe(2);
  });
});
