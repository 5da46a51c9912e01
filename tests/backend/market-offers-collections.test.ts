/** Collection offers, and offers paged (issue 30, decision 0023; issue 43). */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferRecord, ReceivedOffer } from "~core/api/offers";
import type { Page } from "~core/api/market";
import { OFFERS_PAGE_SIZE } from "~core/constants";
import { BROWSER, BUYER, MANAGED, type Market, signOrder, startMarket } from "./market-fixture";
import { TOKEN, accept, balance, heldItem, itemOffers, keyOf, makeOffer, offerCounter, offerMessage, type Item } from "./offers-fixture";

let m: Market;
beforeAll(async () => (m = await startMarket()));
afterAll(() => m.close());

describe("collection offers", () => {
  it("cover the items the market's filter matches, and are accepted for one of them", async () => {
    const item = await heldItem(m, BROWSER.wallet, { rarity: true });
    const type = item.nftType;
    const other = (await m.t.store.sql.get(
      `select id, nft_type as "nftType", token_id as "tokenId", rarity from market_items where owner_address = ? and location = 0 and nft_type = ? and rarity <> ? limit 1`,
      [BROWSER.wallet, type, item.rarity],
    )) as Item | undefined;
    // Spelled in another order: signed as posted, it does not verify; the server signs over the canonical form.
    const spelled = `rarity=${item.rarity}&nftType=${type}`;
    const made = await makeOffer(m, BUYER, { nftType: type, filter: spelled, price: 7n * TOKEN });
    expect(made).toMatchObject({ status: 403 });
    const canonical = `nftType=${type}&rarity=${item.rarity}`;
    const counter = await offerCounter(m, BUYER.wallet);
    const proof = await signOrder(m, "Offer", offerMessage(BUYER, { nftType: type, price: 7n * TOKEN }, counter, canonical), {
      privateKey: keyOf(BUYER),
    });
    const good = await m.post<OfferRecord>(
      "/informationCenter/makeOffer",
      {},
      {
        address: BUYER.wallet,
        nftType: type,
        filter: spelled,
        label: "Card, one rarity",
        price: (7n * TOKEN).toString(),
        currency: "FIRE",
        ...proof,
      },
      m.tokens.buyer,
    );
    expect(good.status, good.msg).toBe(200);
    expect(good.data).toMatchObject({ kind: "collection", filter: canonical, label: "Card, one rarity", tokenId: null });
    expect((await itemOffers(m, item)).map((o) => o.id)).toContain(good.data.id);
    if (other) {
      expect((await itemOffers(m, other)).map((o) => o.id)).not.toContain(good.data.id);
      expect(await accept(m, BROWSER, good.data, other)).toMatchObject({ status: 409, msg: "This offer is not for this item." });
    }
    const before = await balance(m, BROWSER.wallet);
    expect(await accept(m, BROWSER, good.data, item)).toMatchObject({ status: 200 });
    expect(await balance(m, BROWSER.wallet)).toBe(before + 7n * TOKEN);
    expect(await m.scalar<string>("select owner_address from market_items where id = ?", item.id)).toBe(BUYER.wallet);
  });

  it("refuse a filter on listing terms or of another type", async () => {
    for (const filter of ["nftType=0&min[price]=1", "nftType=0&currency=FIRE", "nftType=0&sort=price", "nftType=4"]) {
      const answer = await m.post(
        "/informationCenter/makeOffer",
        {},
        {
          address: BUYER.wallet,
          nftType: 0,
          filter,
          price: "1",
          currency: "FIRE",
          signature: `0x${"ab".repeat(65)}`,
          nonce: "1",
          expiry: 2e9,
        },
        m.tokens.buyer,
      );
      expect(answer.status, filter).toBe(400);
      expect(answer.msg).toMatch(/^filter: /);
    }
  });
});

describe("paging (issue 43)", () => {
  it("serves an item's offers and the offers received a page at a time, best first; offerId finds one on any page", async () => {
    const item = await heldItem(m, MANAGED.wallet);
    const expiry = Math.floor(Date.now() / 1000) + 3600;
    const ids: number[] = [];
    for (let i = 0; i < OFFERS_PAGE_SIZE + 5; i++) {
      const buyer = `0x${(i + 1).toString(16).padStart(40, "7")}`;
      const row = (await m.t.store.sql.get(
        `insert into market_offers (venue, buyer_address, nft_type, item_id, token_id, filter, label, price, currency, counter, nonce,
           expiry, signature, status, created_at) values (0, ?, ?, ?, ?, '', '', ?, 'FIRE', '0', ?, ?, '0x', 0, ?) returning id`,
        [buyer, item.nftType, item.id, item.tokenId, (BigInt(i + 1) * TOKEN).toString().padStart(78, "0"), `page-${i}`, expiry, Date.now()],
      )) as { id: number };
      ids.push(Number(row.id));
    }
    const ref = { tokenId: item.tokenId, nftType: item.nftType };
    const first = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", ref);
    expect([first.total, first.pageNumber, first.pageSize, first.records.length]).toEqual([
      OFFERS_PAGE_SIZE + 5,
      1,
      OFFERS_PAGE_SIZE,
      OFFERS_PAGE_SIZE,
    ]);
    const prices = first.records.map((offer) => BigInt(offer.price));
    expect(prices).toEqual([...prices].sort((a, b) => (a > b ? -1 : 1)));
    expect(prices[0]).toBe(BigInt(OFFERS_PAGE_SIZE + 5) * TOKEN);
    const second = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { ...ref, pageNumber: 2 });
    expect(second.records.map((offer) => BigInt(offer.price))).toEqual([5n, 4n, 3n, 2n, 1n].map((n) => n * TOKEN));
    const cheapest = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { ...ref, offerId: ids[0] });
    expect([cheapest.total, cheapest.records.map((offer) => offer.id)]).toEqual([1, [String(ids[0])]]);
    const small = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { ...ref, pageSize: 10, pageNumber: 3 });
    expect(small.records).toHaveLength(5);
    expect((await m.get("/marketplace/itemOffers", { ...ref, pageSize: 101 })).status).toBe(400);

    const received = await m.ok<Page<ReceivedOffer>>("/marketplace/offersReceived", {}, m.tokens.managed);
    expect(received.total).toBeGreaterThanOrEqual(OFFERS_PAGE_SIZE + 5);
    expect(received.records).toHaveLength(OFFERS_PAGE_SIZE);
    const next = await m.ok<Page<ReceivedOffer>>("/marketplace/offersReceived", { pageNumber: 2 }, m.tokens.managed);
    expect(next.records.length).toBe(Math.min(OFFERS_PAGE_SIZE, received.total - OFFERS_PAGE_SIZE));
    const seen = [...received.records, ...next.records].map(({ offer }) => offer.id);
    expect(new Set(seen).size).toBe(seen.length);
    await m.t.store.sql.run(`update market_offers set status = 2 where id in (${ids.join(", ")})`);
  });
});
