/**
 * Watched searches (issue 30 part 1): the watch API, alerts written with the listing, the hourly digest (on an
 * injected clock) and the signed unsubscribe link.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlertRecord, Inbox, UnsubscribeTarget, WatchRecord } from "~core/api/watches";
import { WEI_PER_TOKEN } from "~core/money";
import { DIGEST_INTERVAL_MS, type DigestMail, runDigests } from "../../backend/market/watches/watch-digest";
import { createWatchTokens } from "../../backend/market/watches/watch-tokens";
import { WATCH_MSG, addWatch, alertWatches } from "../../backend/market/watches/watches";
import { BUYER, MANAGED, heldItem as heldItemOf, type Market, startMarket, withGeneratedMarket } from "./market-fixture";

const TOKEN = WEI_PER_TOKEN;
const SPACESHIP = 4;

let m: Market;
beforeAll(async () => {
  m = await startMarket();
});
afterAll(() => m.close());

const heldItem = (owner: string, nftType: number) => heldItemOf(m, owner, nftType);

async function sellAsManaged(item: { nftType: number; tokenId: string }, price: bigint) {
  const body = { ...item, ownerAddress: MANAGED.wallet, address: MANAGED.wallet, price: price.toString(), currency: "FIRE" };
  const answer = await m.custodial("/informationCenter/sellToken", body, m.tokens.managed);
  expect(answer.status, answer.msg).toBe(200);
}

const inbox = (token: string) => m.ok<Inbox>("/watches/inbox", {}, token);

describe("the watch API", () => {
  it("needs a session, and refuses a bad view, a ceiling without currency and a second watch of the same", async () => {
    expect((await m.get("/watches")).status).toBe(401);
    expect((await m.post("/watches/add", {}, { search: "", query: {} })).status).toBe(401);
    const add = (body: object) => m.post<WatchRecord>("/watches/add", {}, { label: "A search", ...body }, m.tokens.browser);
    expect(await add({ search: "nftType=99", query: { nftType: "99" } })).toMatchObject({ status: 400 });
    expect((await add({ search: "nftType=99", query: { nftType: "99" } })).msg).toMatch(/^query\.nftType: expected/);
    expect(await add({ search: "", query: {}, ceiling: "5" })).toMatchObject({
      status: 400,
      msg: `currency: ${WATCH_MSG.ceilingCurrency}`,
    });
    expect(await add({ search: "currency=QUARK", query: { currency: "QUARK" }, currency: "FIRE" })).toMatchObject({
      status: 400,
      msg: `currency: ${WATCH_MSG.currencyClash("QUARK")}`,
    });
    expect(await add({ search: "?nftType=1", query: {} })).toMatchObject({ status: 400 });
    expect(await add({ search: "nftType=1", query: { nftType: "1" } })).toMatchObject({ status: 200 });
    expect(await add({ search: "nftType=1", query: { nftType: "1" } })).toMatchObject({ status: 409, msg: WATCH_MSG.already });
  });

  it("alerts a watcher of a matching new listing under the ceiling, not over it, nor the seller; counts, reads, mails", async () => {
    const search = `nftType=${SPACESHIP}`;
    const watch = await m.post<WatchRecord>(
      "/watches/add",
      {},
      {
        search,
        label: "Spaceships · FIRE ≤ 5",
        query: { nftType: String(SPACESHIP), sort: "price" },
        currency: "FIRE",
        ceiling: (5n * TOKEN).toString(),
      },
      m.tokens.buyer,
    );
    expect(watch.status, watch.msg).toBe(200);
    expect(watch.data).toMatchObject({
      search,
      label: "Spaceships · FIRE ≤ 5",
      currency: "FIRE",
      ceiling: (5n * TOKEN).toString(),
      emailOn: true,
      fresh: 0,
    });
    // The seller watches the same view: their own listing is no news to them.
    expect(
      (await m.post("/watches/add", {}, { search, label: "Spaceships", query: { nftType: String(SPACESHIP) } }, m.tokens.managed)).status,
    ).toBe(200);

    await sellAsManaged(await heldItem(MANAGED.wallet, SPACESHIP), 9n * TOKEN);
    expect((await inbox(m.tokens.buyer)).alerts).toEqual([]);
    const cheap = await heldItem(MANAGED.wallet, SPACESHIP);
    await sellAsManaged(cheap, 3n * TOKEN);

    const box = await inbox(m.tokens.buyer);
    expect(box.unread).toBe(1);
    expect(box.alerts).toEqual([
      expect.objectContaining<Partial<AlertRecord>>({
        ...cheap,
        watches: [expect.objectContaining({ id: watch.data.id, search })],
        price: (3n * TOKEN).toString(),
        currency: "FIRE",
        read: false,
      }),
    ]);
    expect((await inbox(m.tokens.managed)).alerts).toEqual([]);
    expect((await m.ok<{ unread: number }>("/watches/unread", {}, m.tokens.buyer)).unread).toBe(1);
    expect((await m.post("/watches/read", {}, {}, m.tokens.buyer)).status).toBe(200);
    expect((await inbox(m.tokens.buyer)).unread).toBe(0);

    const listed = await m.ok<WatchRecord[]>("/watches", {}, m.tokens.buyer);
    expect(listed.map((w) => [w.search, w.fresh])).toEqual([[search, 1]]);
    expect((await m.post("/watches/seen", {}, {}, m.tokens.buyer)).status).toBe(200);
    expect((await m.ok<WatchRecord[]>("/watches", {}, m.tokens.buyer))[0].fresh).toBe(0);

    // The digest goes out after the listing, through the SSO's mailer, to the watcher's email.
    await expect
      .poll(async () => (await m.t.call<{ subject: string; body: string }[]>("GET", `/dev/outbox.json?to=${BUYER.email}`)).data[0]?.subject)
      .toBe("Spark Era: 1 new match for your watched searches");
    const mail = (await m.t.call<{ body: string }[]>("GET", `/dev/outbox.json?to=${BUYER.email}`)).data[0].body;
    expect(mail).toContain(`/marketplace/detail?nftType=${cheap.nftType}&tokenId=${cheap.tokenId}`);
    expect(mail).toMatch(/\/marketplace\/watches\/unsubscribe\?token=\d+\.[\w-]{43}/);
  });

  it("removes a watch for its owner only, with its alerts", async () => {
    const [watch] = await m.ok<WatchRecord[]>("/watches", {}, m.tokens.buyer);
    expect(await m.post("/watches/remove", {}, { id: watch.id }, m.tokens.browser)).toMatchObject({ status: 404, msg: WATCH_MSG.notFound });
    expect((await m.post("/watches/remove", {}, { id: watch.id }, m.tokens.buyer)).status).toBe(200);
    expect(await m.ok<WatchRecord[]>("/watches", {}, m.tokens.buyer)).toEqual([]);
    expect((await inbox(m.tokens.buyer)).alerts).toEqual([]);
  });
});

describe("the unsubscribe link", () => {
  it("names one watch, is refused forged or from another key, shows on GET and stops the emails on POST", async () => {
    const tokens = createWatchTokens("11".repeat(32));
    const other = createWatchTokens("22".repeat(32));
    const token = tokens.sign(42);
    expect(tokens.verify(token)).toBe(42);
    expect(tokens.verify(other.sign(42))).toBeNull();
    expect(tokens.verify(token.replace(/^42\./, "43."))).toBeNull();
    expect(tokens.verify(`${token}x`)).toBeNull();
    expect(tokens.verify("")).toBeNull();

    const added = await m.post<WatchRecord>(
      "/watches/add",
      {},
      { search: "nftType=0", label: "Hero cards", query: { nftType: "0" } },
      m.tokens.browser,
    );
    const link = createWatchTokens("11".repeat(32)).sign(added.data.id);
    expect(await m.get<UnsubscribeTarget>("/watches/unsubscribe", { token: link })).toMatchObject({
      status: 200,
      data: { id: added.data.id, search: "nftType=0", emailOn: true },
    });
    const forged = `${added.data.id}.${"A".repeat(43)}`;
    expect(await m.get("/watches/unsubscribe", { token: forged })).toMatchObject({ status: 400, msg: WATCH_MSG.badLink });
    expect(await m.post("/watches/unsubscribe", {}, { token: forged })).toMatchObject({ status: 400, msg: WATCH_MSG.badLink });
    expect(await m.post<UnsubscribeTarget>("/watches/unsubscribe", {}, { token: link })).toMatchObject({
      status: 200,
      data: { emailOn: false },
    });
    const listed = await m.ok<WatchRecord[]>("/watches", {}, m.tokens.browser);
    expect(listed.find((w) => w.id === added.data.id)?.emailOn).toBe(false);
  });
});

describe("the digest", () => {
  it("mails each watch at most once an hour, one mail per account listing every watch's new matches", async () => {
    await withGeneratedMarket({ items: 120, activeListings: 12 }, async (db) => {
      const listings = (await db.all<{ id: number }>("select id from market_listings where status = 0 order by id")).map((l) => l.id);
      const t0 = 1_800_000_000_000;
      const everything = await db.write((tx) => addWatch(tx, "a@example.test", { search: "", label: "All items", query: {} }, t0));
      const second = await db.write((tx) =>
        addWatch(tx, "a@example.test", { search: "venue=game", label: "All items · In the game", query: { venue: "game" } }, t0),
      );
      await db.write((tx) => addWatch(tx, "b@example.test", { search: "", label: "All items", query: {} }, t0));
      const mails: DigestMail[] = [];
      const tokens = createWatchTokens("11".repeat(32));
      const digest = (now: number) =>
        runDigests(db, { siteUrl: "https://sparkera.test", tokens, send: async (mail) => void mails.push(mail), now: () => now });

      await db.write(async (tx) => {
        for (const id of listings.slice(0, 2)) await alertWatches(tx, id, t0);
      });
      expect(await digest(t0)).toBe(2);
      const toA = mails.find((mail) => mail.userName === "a@example.test")!;
      // Two listings, each matching both of a's watches: two matches, each naming both watches.
      expect(toA.subject).toBe("Spark Era: 2 new matches for your watched searches");
      expect(toA.text.match(/Matches: All items; All items · In the game/g)).toHaveLength(2);
      expect(toA.text).toContain(`/marketplace/watches/unsubscribe?token=${tokens.sign(everything.id)}`);
      expect(toA.text).toContain(`/marketplace/watches/unsubscribe?token=${tokens.sign(second.id)}`);
      expect(toA.text).toContain(
        `- All items · In the game: https://sparkera.test/marketplace/watches/unsubscribe?token=${tokens.sign(second.id)}`,
      );

      // Ten minutes on, a new match waits: its watches were mailed under an hour ago.
      await db.write((tx) => alertWatches(tx, listings[2], t0 + 10 * 60_000));
      expect(await digest(t0 + 10 * 60_000)).toBe(0);
      expect(await digest(t0 + DIGEST_INTERVAL_MS - 1)).toBe(0);
      mails.length = 0;
      expect(await digest(t0 + DIGEST_INTERVAL_MS)).toBe(2);
      expect(mails.find((mail) => mail.userName === "a@example.test")!.subject).toBe("Spark Era: 1 new match for your watched searches");
      // Nothing is mailed twice.
      expect(await digest(t0 + 3 * DIGEST_INTERVAL_MS)).toBe(0);
    });
  });
});
