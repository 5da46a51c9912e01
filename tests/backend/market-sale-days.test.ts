/** The sale rollups (backend/market/shared/sale-days.ts): a view's numbers and history from them equal the raw computation. */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCIES } from "~core/money";
import { GRADE_ATTRIBUTES, NFT_TYPE, type NftTypeCode } from "~core/nft";
import { filterOf, listingQuerySchema } from "../../backend/market/shared/listing-schemas";
import { computeHistory, computeViewNumbers } from "../../backend/market/stats/view-numbers";
import { DAY, type FacetColumn, GRAINS, HOUR, rebuildSaleDays } from "../../backend/market/shared/sale-days";
import { viewFacets } from "../../backend/market/listings/query";
import { shardOf } from "../../backend/market/shared/shards";
import { recordActivity } from "../../backend/market/shared/activity";
import { ACTIVITY_KIND } from "../../backend/market/shared/tables";
import type { ItemRow } from "../../backend/market/shared/items";
import type { Sql } from "../../backend/market/shared/db";
import { type Market, startMarket } from "./market-fixture";

let m: Market;
let db: Sql;
/** Sold listings' filter values, to draw filters that match something. */
let sold: { nft_type: number; grade: number; camp: number | null; level: number | null }[];
let times: number[];
/** A UTC midnight with a sale on it and one just before it. */
let boundary: number;

const rollupRows = async () => [
  await db.all("select * from market_sale_days order by grain, nft_type, grade, camp, level, currency, day, shard"),
  await db.all("select * from market_sale_hours order by grain, nft_type, grade, camp, level, currency, hour, shard"),
];

beforeAll(async () => {
  m = await startMarket();
  db = m.t.store.sql as Sql;
  sold = await db.all(
    "select l.nft_type, l.grade, l.camp, l.level from market_listings l join market_activity a on a.listing_id = l.id where a.kind = ?",
    [ACTIVITY_KIND.sale],
  );
  // Two more sales of a sold listing, on either side of the midnight after the newest sale, written the way a trade writes.
  const last = (await db.get<{ listing_id: number; item_id: number; price: string; currency: string; at: number }>(
    "select listing_id, item_id, price, currency, at from market_activity where kind = ? order by at desc limit 1",
    [ACTIVITY_KIND.sale],
  ))!;
  const item = (await db.get<ItemRow>("select * from market_items where id = ?", [last.item_id]))!;
  boundary = (Math.floor(Number(last.at) / DAY) + 1) * DAY;
  for (const at of [boundary - 1, boundary]) {
    await recordActivity(db, {
      kind: ACTIVITY_KIND.sale,
      item,
      listingId: last.listing_id,
      from: item.owner_address,
      to: item.owner_address,
      price: BigInt(last.price) + BigInt(at - boundary + 7),
      currency: last.currency as (typeof CURRENCIES)[number],
      at,
    });
  }
  times = (await db.all<{ at: number }>("select at from market_activity where kind = ?", [ACTIVITY_KIND.sale])).map((r) => Number(r.at));
});
afterAll(() => m.close());

/** A filter the rollups keep: type, its grade, camp, a level range, currency, drawn from the sold listings' values. */
const filters = fc
  .record({
    pick: fc.nat(),
    type: fc.boolean(),
    grade: fc.boolean(),
    camp: fc.boolean(),
    level: fc.option(fc.tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 9 }))),
    currency: fc.option(fc.constantFrom(...CURRENCIES)),
    totalSort: fc.boolean(),
  })
  .map(({ pick, type, grade, camp, level, currency, totalSort }) => {
    const listing = sold[pick % sold.length];
    const input: Record<string, unknown> = {};
    if (type) input.nftType = String(listing.nft_type);
    if (type && grade && listing.grade >= 0) input[filterOf(GRADE_ATTRIBUTES[listing.nft_type as NftTypeCode])] = String(listing.grade);
    if (camp && listing.camp !== null) input.camp = String(listing.camp);
    if (level) input.min = { level: String(level[0]) };
    if (level) input.max = { level: String(Math.min(10, level[0] + level[1])) };
    if (currency) input.currency = currency;
    // Sorting by stats makes a view of spaceships (backend/market/listings/query.ts viewQuery).
    if (totalSort && !type) input.sort = "total";
    return input;
  });

/** A clock near a sale: at it, just around it, at its midnights, or days later. */
const clocks = fc
  .record({
    pick: fc.nat(),
    shift: fc.constantFrom(0, 1, -1, "midnight", "midnight-1", "hour", "hour-1", "days") as fc.Arbitrary<number | string>,
    days: fc.integer({ min: 0, max: 9 }),
  })
  .map(({ pick, shift, days }) => {
    const at = times[pick % times.length];
    if (shift === "midnight") return Math.floor(at / DAY) * DAY;
    if (shift === "midnight-1") return Math.floor(at / DAY) * DAY - 1;
    // The hourly cells' edges: a window's partial hours are read raw, whole ones from cells.
    if (shift === "hour") return Math.floor(at / HOUR) * HOUR + days * HOUR;
    if (shift === "hour-1") return Math.floor(at / HOUR) * HOUR - 1 - days * HOUR;
    if (shift === "days") return at + days * DAY + (pick % DAY);
    return at + (shift as number);
  });

describe("sale rollups", () => {
  it("a view's numbers and history from the rollups equal the raw computation, on random filters and clocks", async () => {
    await fc.assert(
      fc.asyncProperty(filters, clocks, async (input, now) => {
        const query = listingQuerySchema.parse(input);
        expect(viewFacets(query)).not.toBeNull();
        expect(await computeViewNumbers(db, query, now)).toEqual(await computeViewNumbers(db, query, now, false));
        for (const period of ["7d", "30d", "90d", "all"] as const) {
          expect(await computeHistory(db, { query }, period, now)).toEqual(await computeHistory(db, { query }, period, now, false));
        }
      }),
      { numRuns: 30 },
    );
  }, 180_000);

  it("counts a sale at midnight in the new day and one a millisecond before in the old", async () => {
    const query = listingQuerySchema.parse({});
    for (const now of [boundary - 1, boundary, boundary + DAY - 1, boundary + DAY, boundary + 7 * DAY]) {
      const numbers = await computeViewNumbers(db, query, now);
      expect(numbers).toEqual(await computeViewNumbers(db, query, now, false));
      expect(numbers.lastSale?.at).toBe(new Date(Math.min(now, boundary)).toISOString());
    }
    const history = await computeHistory(db, { query }, "7d", boundary);
    expect(history).toEqual(await computeHistory(db, { query }, "7d", boundary, false));
    const day = (index: number) =>
      history.series.flatMap((s) => s.points.filter((p) => p.index === index)).reduce((n, p) => n + p.sales, 0);
    // The 7 d history ends with the boundary's day (index 6), the sale a millisecond earlier is in the day before.
    expect(day(6)).toBe(times.filter((at) => at >= boundary && at < boundary + DAY).length);
    expect(day(6)).toBeGreaterThan(0);
    expect(day(5)).toBe(times.filter((at) => at >= boundary - DAY && at < boundary).length);
  });

  it("kept sale by sale, the rollups equal those rebuilt from the activity log (the migration's backfill)", async () => {
    const kept = await rollupRows();
    expect(kept.map((rows) => rows.length > 0)).toEqual([true, true]);
    const days = times.map((at) => Math.floor(at / DAY));
    await rebuildSaleDays(db, Math.min(...days), Math.max(...days));
    expect(await rollupRows()).toEqual(kept);
  });

  it("a view with a filter the rollups do not keep reads its sales raw", () => {
    for (const input of [{ min: { price: "1" } }, { venue: "chain" }, { nftType: String(NFT_TYPE.card), identity: "1" }]) {
      expect(viewFacets(listingQuerySchema.parse(input))).toBeNull();
    }
  });
});

describe("listed cells", () => {
  /** The active listings counted per grain cell, currency and shard (decision 0034), recounted from market_listings. */
  async function recount(): Promise<string[]> {
    const active = await db.all<Record<FacetColumn, number | null> & { currency: string; id: number }>(
      "select id, nft_type, grade, camp, level, currency from market_listings where status = 0",
    );
    const cells = new Map<string, number>();
    for (const listing of active) {
      GRAINS.forEach((grain, index) => {
        const values = (["nft_type", "grade", "camp", "level"] as const).map((c) => (grain.includes(c) ? (listing[c] ?? -1) : -1));
        const key = [index, ...values, listing.currency, shardOf(listing.id)].join(" ");
        cells.set(key, (cells.get(key) ?? 0) + 1);
      });
    }
    return [...cells].map(([key, n]) => `${key} ${n}`).sort();
  }
  const kept = async () =>
    (
      await db.all<{
        grain: number;
        nft_type: number;
        grade: number;
        camp: number;
        level: number;
        currency: string;
        shard: number;
        listed: number;
      }>("select * from market_listed_cells where listed <> 0")
    )
      .map((c) => [c.grain, c.nft_type, c.grade, c.camp, c.level, c.currency, c.shard, c.listed].join(" "))
      .sort();

  it("the kept counts equal a recount after random listing writes: list, sell, cancel, reopen, move a column, delete", async () => {
    expect(await kept()).toEqual(await recount());
    const ids = (await db.all<{ id: number }>("select id from market_listings order by id")).map((r) => Number(r.id));
    const ops = fc.array(
      fc.oneof(
        fc.record({ op: fc.constant("status" as const), pick: fc.nat(), status: fc.constantFrom(0, 1, 2) }),
        fc.record({
          op: fc.constant("move" as const),
          pick: fc.nat(),
          columns: fc.subarray(["grade", "camp", "level", "currency"] as const, { minLength: 1 }),
          grade: fc.integer({ min: -1, max: 5 }),
          camp: fc.option(fc.integer({ min: 1, max: 3 })),
          level: fc.option(fc.integer({ min: 1, max: 10 })),
          currency: fc.constantFrom(...CURRENCIES),
        }),
        fc.record({ op: fc.constant("copy" as const), pick: fc.nat() }),
        fc.record({ op: fc.constant("delete" as const), pick: fc.nat() }),
      ),
      { minLength: 1, maxLength: 12 },
    );
    const copies: number[] = [];
    await fc.assert(
      fc.asyncProperty(ops, async (steps) => {
        for (const step of steps) {
          const id = ids[step.pick % ids.length];
          if (step.op === "status") {
            // Active again only while its item has no other active listing (the one-active-listing key).
            await db.run(
              `update market_listings set status = ? where id = ? and (? <> 0 or not exists
                 (select 1 from market_listings other where other.item_id = market_listings.item_id and other.status = 0))`,
              [step.status, id, step.status],
            );
          } else if (step.op === "move") {
            // Some of the columns only: the update trigger must watch each.
            const values = { grade: step.grade, camp: step.camp, level: step.level, currency: step.currency };
            await db.run(`update market_listings set ${step.columns.map((c) => `${c} = ?`).join(", ")} where id = ?`, [
              ...step.columns.map((c) => values[c]),
              id,
            ]);
          } else if (step.op === "copy") {
            // A closed copy, then opened if the item has no active listing: an insert and an update of status.
            const row = (await db.get<{ id: number }>(
              `insert into market_listings (item_id, nft_type, token_id, seller_address, price, currency, status, listed_at, grade, camp, level)
               select item_id, nft_type, token_id, seller_address, price, currency, 2, listed_at, grade, camp, level from market_listings
               where id = ? returning id`,
              [id],
            ))!;
            copies.push(Number(row.id));
            await db.run(
              `update market_listings set status = 0 where id = ? and not exists
                 (select 1 from market_listings other where other.item_id = market_listings.item_id and other.status = 0)`,
              [row.id],
            );
          } else if (copies.length) {
            await db.run("delete from market_listings where id = ?", [copies.splice(step.pick % copies.length, 1)[0]]);
          }
        }
        expect(await kept()).toEqual(await recount());
      }),
      { numRuns: 25 },
    );
  }, 180_000);
});
