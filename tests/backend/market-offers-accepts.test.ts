/** Accepted offers (issue 30, decision 0023): sales in the numbers, and exactly once under concurrent accepts. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferRecord } from "~core/api/offers";
import type { ViewNumbers } from "~core/api/market";
import { NFT_TYPE } from "~core/nft";
import { MAX_OPEN_OFFERS_PER_ITEM } from "~core/constants";
import type { Sql } from "../../backend/market/shared/db";
import { viewSales } from "./view-sales";
import type { Kysely } from "kysely";
import { backfillOfferSales } from "../../backend/market/shared/items";
import { DAY, rebuildSaleDays } from "../../backend/market/shared/sale-days";
import { BROWSER, BUYER, MANAGED, type Market, startMarket } from "./market-fixture";
import { TOKEN, accept, heldItem, makeOffer } from "./offers-fixture";

let m: Market;
beforeAll(async () => (m = await startMarket()));
afterAll(() => m.close());

describe("20 concurrent accepts of offers on one item", () => {
  it("make one trade and neither create nor lose money", async () => {
    const item = await heldItem(m, BROWSER.wallet);
    const buyers = [BUYER, MANAGED];
    const offers: OfferRecord[] = [];
    // Two buyers at the cap of open offers on one item each (issue 43), every offer accepted twice at once.
    for (let i = 0; i < 2 * MAX_OPEN_OFFERS_PER_ITEM; i++) {
      const made = await makeOffer(m, buyers[i % 2], { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN + BigInt(i) });
      expect(made.status, made.msg).toBe(200);
      offers.push(made.data);
    }
    const ledgerSum = async () =>
      (await m.t.store.sql.all("select amount from market_balances where currency = 'FIRE'")).reduce(
        (sum: bigint, row) => sum + BigInt((row as { amount: string }).amount),
        0n,
      );
    const soldListings = async () =>
      Number(await m.scalar("select count(*) from market_listings where item_id = ? and status = 1", item.id));
    const [before, soldBefore] = [await ledgerSum(), await soldListings()];
    const answers = await Promise.all([...offers, ...offers].map((offer) => accept(m, BROWSER, offer, item)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status >= 400 && a.status < 500)).toBe(true);
    expect(await ledgerSum()).toBe(before);
    expect(await m.scalar("select count(*) from market_offers where item_id = ? and status = 1", item.id)).toBe(1);
    // The winner's sale has its sold listing; the losers' rolled back with their transactions.
    expect(await soldListings()).toBe(soldBefore + 1);
    expect(
      await m.scalar("select count(*) from market_activity where item_id = ? and kind = 1 and from_address = ?", item.id, BROWSER.wallet),
    ).toBe(1);
  });
});

describe("an accepted offer in the numbers (decision 0022)", () => {
  it("is a sale of its item's views: volume, last sale, history and the sale rollups, and of no other view", async () => {
    const item = await heldItem(m, MANAGED.wallet);
    const db = m.t.store.sql as Sql;
    // One clock for before and after, past the accept: only the accepted offer's sale differs.
    const now = Date.now() + 60_000;
    const views = [{ nftType: String(item.nftType) }, { nftType: String(item.nftType), venue: "game" }, {}];
    const other = { nftType: String(item.nftType === NFT_TYPE.card ? NFT_TYPE.pse : NFT_TYPE.card) };
    const before = await Promise.all([...views, other].map((view) => viewSales(db, view, now)));
    const price = 4321n * TOKEN + 89n;
    const made = await makeOffer(m, BUYER, { nftType: item.nftType, tokenId: item.tokenId, price });
    expect(made.status, made.msg).toBe(200);
    const answer = await accept(m, MANAGED, made.data, item);
    expect(answer.status, answer.msg).toBe(200);
    const after = await Promise.all([...views, other].map((view) => viewSales(db, view, now)));
    views.forEach((_, index) => {
      expect(after[index].sales).toBe(before[index].sales + 1);
      const [day, week] = after[index].numbers.windows;
      expect(day.sales).toBe(before[index].numbers.windows[0].sales + 1);
      expect(week.sales).toBe(before[index].numbers.windows[1].sales + 1);
      const volume = (numbers: ViewNumbers) => BigInt(numbers.windows[0].volume.find((v) => v.currency === "FIRE")?.amount ?? 0);
      expect(volume(after[index].numbers)).toBe(volume(before[index].numbers) + price);
      expect(after[index].numbers.lastSale).toMatchObject({ price: price.toString(), currency: "FIRE", tokenId: item.tokenId });
    });
    expect(after[views.length]).toEqual(before[views.length]);

    // An offer sale logged before market_024 (no listing) is given one by the migration's backfill, counted again.
    const sale = (await db.get<{ id: number; listing_id: number; at: number }>(
      "select id, listing_id, at from market_activity where item_id = ? and kind = 1 order by id desc limit 1",
      [item.id],
    ))!;
    await db.run("update market_activity set listing_id = null where id = ?", [sale.id]);
    await db.run("delete from market_listings where id = ?", [sale.listing_id]);
    await rebuildSaleDays(db, Math.floor(Number(sale.at) / DAY), Math.floor(Number(sale.at) / DAY));
    expect((await viewSales(db, views[0], now)).sales).toBe(before[0].sales);
    await backfillOfferSales(m.t.store.db as Kysely<unknown>, m.t.store.engine);
    const backfilled = await Promise.all([...views, other].map((view) => viewSales(db, view, now)));
    expect(backfilled).toEqual(after);
  });
});
