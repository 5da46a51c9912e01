/**
 * The round trips of a trade (issue 44 item 4, decision 0034 "Batched writes"): each statement the market's code sends
 * inside a sell, a buy and a cancel is a round trip to PostgreSQL, and on a busy machine what one client can do is
 * bounded by them. A buy writes its twelve rollup cells in two statements, the day's volume in one, and reads nothing
 * it already knows; these counts pin that, on both engines, so a change that adds a statement to a trade shows here.
 * Counted: the statements the transaction's runner is handed (a trigger's work runs in its statement, not counted),
 * not the transaction's begin and commit (2 more each).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BackendDb } from "../../backend/types";
import { type MarketDb, type Sql } from "../../backend/market/shared/db";
import { credit } from "../../backend/market/shared/ledger";
import { orderCounter } from "../../backend/market/trades/orders";
import { buy, cancel, sell } from "../../backend/market/trades/trades";
import { orderProofs, ownerOf } from "./direct-orders";
import { insertGameItem, seededMarketDb } from "./market-db-fixture";

/**
 * A sell: the item, its active listing, the seller's counter, the nonce, the listing, the watches, the activity (8).
 * A buy (39 before the batched writes: each of the 12 rollup cells, the volume row and the two balances read, then
 * written; the sold listing's columns and each inviter read apart): the item, its listing, the nonce, the sale
 * (returning the listing's rollup columns), the two balances, the item's owner, the activity, the day and hour
 * rollups, the day's volume, the parties' inviters (12). A cancel: the item, its listing, the nonce, the close, the
 * activity (5).
 */
const SELL = 8;
const BUY = 12;
const CANCEL = 5;

const PRICE = 10n ** 15n;
const NFT_TYPE = 0;
const TOKEN = "710001";
const wallet = (side: number): `0x${string}` => `0x${(0xd0000 + side).toString(16).padStart(40, "0")}`;

let store: BackendDb;
let db: MarketDb;
const order = orderProofs();

beforeAll(async () => {
  ({ store, db } = await seededMarketDb(async (tx, now) => {
    await insertGameItem(tx, { nftType: NFT_TYPE, tokenId: TOKEN }, wallet(0), now);
    for (const side of [0, 1]) await credit(tx, wallet(side), "FIRE", PRICE * 1000n);
  }));
});
afterAll(() => store?.close());

/** `fn` in one write transaction, and the statements it sent through the transaction's runner. */
async function counted<T>(fn: (tx: Sql) => Promise<T>): Promise<{ result: T; statements: string[] }> {
  return await db.write(async (tx) => {
    const statements: string[] = [];
    const log =
      <A extends unknown[], R>(call: (sql: string, ...rest: A) => Promise<R>) =>
      (sql: string, ...rest: A) => {
        statements.push(sql.replace(/\s+/g, " ").slice(0, 60));
        return call(sql, ...rest);
      };
    const counting: Sql = {
      engine: tx.engine,
      all: log((sql, params?: readonly unknown[]) => tx.all(sql, params)),
      get: log((sql, params?: readonly unknown[]) => tx.get(sql, params)),
      run: log((sql, params?: readonly unknown[]) => tx.run(sql, params)),
      lockSubject: (subject) => tx.lockSubject(subject),
    } as Sql;
    return { result: await fn(counting), statements };
  });
}

const item = { nftType: NFT_TYPE, tokenId: TOKEN };

async function sellOnce(seller: `0x${string}`) {
  const counter = await orderCounter(db, seller);
  const input = { ...item, ownerAddress: seller, address: seller, price: PRICE, currency: "FIRE" as const, counter };
  return await counted((tx) => sell(tx, ownerOf(seller), input, order(), Date.now()));
}

describe("the statements of a trade", () => {
  it("a sell, a buy and a cancel send a pinned number of statements", async () => {
    // Twice, the item going back: the balances move in address order, buyer first or seller first.
    const counts: { sell: number; buy: number; statements: string[] }[] = [];
    for (const [seller, buyer] of [
      [wallet(0), wallet(1)],
      [wallet(1), wallet(0)],
    ]) {
      const sold = await sellOnce(seller);
      const bought = await counted((tx) =>
        buy(tx, ownerOf(buyer), { ...item, listingId: sold.result.listingId, price: PRICE, address: buyer }, order(), Date.now()),
      );
      counts.push({ sell: sold.statements.length, buy: bought.statements.length, statements: bought.statements });
    }
    const listed = await sellOnce(wallet(0));
    const cancelled = await counted((tx) => cancel(tx, ownerOf(wallet(0)), { ...item, address: wallet(0) }, order(), Date.now()));
    // On a mismatch the buy's statements are in the diff.
    expect({
      counts: counts.map(({ sell, buy }, i) => (buy === BUY ? { sell, buy } : counts[i])),
      sell: listed.statements.length,
      cancel: cancelled.statements.length,
    }).toEqual({
      counts: [
        { sell: SELL, buy: BUY },
        { sell: SELL, buy: BUY },
      ],
      sell: SELL,
      cancel: CANCEL,
    });
  });
});
