/**
 * Issue 42: every filter a market view takes can be watched, list attributes included (the app sends them as
 * arrays), and a listing that matches several of an account's watches is one alert naming them, in the inbox and
 * in the digest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Inbox, WatchRecord } from "~core/api/watches";
import { marketHref, parseMarketFilter, serializeMarketFilter, toMarketQuery } from "~/features/market/filters/market";
import { LIST_FILTERS, LIST_KEYS, RANGE_FILTERS, RANGE_KEYS, type MarketFilter } from "~/features/market/filters/market-options";
import { NFT_TYPE_CODES } from "~/features/market/filters/shared";
import { type DigestMail, runDigests } from "../../backend/market/watches/watch-digest";
import { createWatchTokens } from "../../backend/market/watches/watch-tokens";
import { type WatchRow, addWatch, alertWatches, listAlerts, listWatches, removeWatch } from "../../backend/market/watches/watches";
import { type Market, startMarket, withGeneratedMarket } from "./market-fixture";

let m: Market;
beforeAll(async () => {
  m = await startMarket();
});
afterAll(() => m.close());

/** The watch the app's action posts for a market URL's query (watches.server.ts). */
function addBody(search: string) {
  const { filter } = parseMarketFilter(new URLSearchParams(search));
  return { search: serializeMarketFilter(filter), label: search, query: toMarketQuery(filter) };
}

/** A view of `nftType` with every list and range filter the market offers for it, two values a list. */
function everyFilter(nftType: MarketFilter["nftType"]): string {
  const filter = parseMarketFilter(new URLSearchParams(nftType === undefined ? "" : `nftType=${nftType}`)).filter;
  for (const key of LIST_KEYS) {
    const spec = LIST_FILTERS[key];
    if (nftType === undefined ? spec.types.length < 2 : !spec.types.includes(nftType)) continue;
    filter.lists[key] = Object.keys(spec.options).map(Number).slice(0, 2);
  }
  for (const key of RANGE_KEYS) {
    const spec = RANGE_FILTERS[key];
    if (nftType !== undefined && (spec.types as readonly number[]).includes(nftType))
      filter.ranges[key] = { min: spec.min, max: spec.min + 1 };
  }
  return marketHref({ ...filter, currency: "FIRE", price: { max: 500n * 10n ** 18n } }).split("?")[1];
}

describe("watching a market view", () => {
  it("accepts every filter the market takes, list attributes as the app sends them", async () => {
    const views = [
      "nftType=0&camp=0&rarity=1&currency=FIRE",
      "nftType=0&rarity=1",
      "nftType=8&material=2",
      ...[undefined, ...NFT_TYPE_CODES].map(everyFilter),
    ];
    for (const view of views) {
      const body = addBody(view);
      expect(Object.values(body.query).some(Array.isArray) || !/camp|rarity|material/.test(view), view).toBe(true);
      const answer = await m.post<WatchRecord>("/watches/add", {}, body, m.tokens.buyer);
      expect(answer.status, `${view}: ${answer.msg}`).toBe(200);
      expect(answer.data).toMatchObject({ search: body.search, label: view });
    }
    expect(await m.ok<WatchRecord[]>("/watches", {}, m.tokens.buyer)).toHaveLength(views.length);
    expect((await m.ok<Inbox>("/watches/inbox", {}, m.tokens.buyer)).alerts).toEqual([]);
  });
});

describe("one listing, one alert", () => {
  it("a listing matching three of an account's watches is one alert naming the three, counted once in the digest", async () => {
    await withGeneratedMarket({ items: 60, activeListings: 6 }, async (db) => {
      const listing = (await db.get<{ id: number; nft_type: number }>(
        "select id, nft_type from market_listings where status = 0 and venue = 0 order by id limit 1",
      ))!;
      const t0 = 1_800_000_000_000;
      const user = "a@example.test";
      const views = [
        { search: "", label: "All items", query: {} },
        { search: "venue=game", label: "All items · In the game", query: { venue: "game" } },
        { search: `nftType=${listing.nft_type}`, label: "One type", query: { nftType: String(listing.nft_type) } },
      ];
      const watches: WatchRow[] = [];
      for (const view of views) watches.push(await db.write((tx) => addWatch(tx, user, view, t0)));
      await db.write((tx) => addWatch(tx, "b@example.test", views[0], t0));

      expect(await db.write((tx) => alertWatches(tx, listing.id, t0))).toBe(2);
      // Matched again (a replayed write): still one alert.
      await db.write((tx) => alertWatches(tx, listing.id, t0));
      const inbox = await listAlerts(db, user);
      expect(inbox).toHaveLength(1);
      expect(inbox[0].watches.map((watch) => watch.label)).toEqual(views.map((view) => view.label));
      expect((await listWatches(db, user)).map((watch) => watch.fresh)).toEqual([1, 1, 1]);

      const mails: DigestMail[] = [];
      const tokens = createWatchTokens("11".repeat(32));
      await runDigests(db, { siteUrl: "https://sparkera.test", tokens, send: async (mail) => void mails.push(mail), now: () => t0 });
      const mail = mails.find((sent) => sent.userName === user)!;
      expect(mail.subject).toBe("Spark Era: 1 new match for your watched searches");
      expect(mail.text).toContain(`Matches: ${views.map((view) => view.label).join("; ")}`);
      expect(mail.text.match(/\/marketplace\/detail\?/g)).toHaveLength(1);

      // A later listing whose one watch was mailed within the hour goes out with the two due ones, naming all three.
      const next = (await db.get<{ id: number }>(
        "select id from market_listings where status = 0 and venue = 0 and nft_type = ? and id > ? order by id limit 1",
        [listing.nft_type, listing.id],
      ))!;
      await db.write((tx) => tx.run("update market_watches set emailed_at = null where id <> ?", [watches[2].id]));
      await db.write((tx) => alertWatches(tx, next.id, t0 + 60_000));
      mails.length = 0;
      await runDigests(db, {
        siteUrl: "https://sparkera.test",
        tokens,
        send: async (mail) => void mails.push(mail),
        now: () => t0 + 60_000,
      });
      const later = mails.find((sent) => sent.userName === user)!;
      expect(later.text).toContain(`Matches: ${views.map((view) => view.label).join("; ")}`);
      expect(later.text.match(/unsubscribe\?token=/g)).toHaveLength(3);

      // The alert stays while a watch it matched does, naming those left.
      await db.write((tx) => removeWatch(tx, user, watches[0].id));
      expect((await listAlerts(db, user))[0].watches.map((watch) => watch.id)).toEqual([watches[1].id, watches[2].id]);
      await db.write((tx) => removeWatch(tx, user, watches[1].id));
      await db.write((tx) => removeWatch(tx, user, watches[2].id));
      expect(await listAlerts(db, user)).toEqual([]);
    });
  });
});
