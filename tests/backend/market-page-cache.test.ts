/**
 * The market pages' generation (market_011) on the real backends, and the page cache (server/page-cache.ts) keyed by
 * it: every change a market page shows moves it, so the next visitor's page is rendered afresh; a signed-in request
 * is rendered for itself.
 */
import crypto from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Request as ExpressRequest } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListingRecord, Page } from "~core/api/market";
import { MarketDb } from "../../backend/market/shared/db";
import { padWei } from "../../backend/market/shared/money";
import { indexerGenerationReader, marketPageGeneration, pageGenerationReader } from "../../backend/market/trades/page-generation";
import { itemViewCounter } from "../../server/item-views";
import { remixHandler } from "../../server/page-cache";
import { API, BROWSER, type Market, startMarket } from "./market-fixture";

let m: Market;
let db: MarketDb;
const generation = () => marketPageGeneration(db);

beforeAll(async () => {
  m = await startMarket();
  db = new MarketDb(m.t.store);
});
afterAll(() => m?.close());

async function aListing() {
  return (await m.t.store.sql.get(
    'select id, item_id as "itemId", nft_type as "nftType", token_id as "tokenId" from market_listings where status = 0 and nft_type <> 8 order by id limit 1',
  )) as { id: number; itemId: number; nftType: number; tokenId: string };
}

describe("market_page_generation", () => {
  it("moves with a listing's change, its views and favorites, and a listed item's change", async () => {
    const listing = await aListing();
    const ref = { nftType: listing.nftType, tokenId: listing.tokenId };
    let before = await generation();
    await m.t.store.sql.run("update market_listings set price = price where id = ?", [listing.id]);
    expect(await generation()).toBeGreaterThan(before);

    before = await generation();
    expect((await m.post("/marketplace/token/views/add", ref)).status).toBe(200);
    expect(await generation()).toBeGreaterThan(before);

    before = await generation();
    const favorite = await m.post("/informationCenter/favorite/add", { ...ref, address: BROWSER.wallet }, undefined, m.tokens.browser);
    expect(favorite.status).toBe(200);
    expect(await generation()).toBeGreaterThan(before);

    before = await generation();
    await m.t.store.sql.run("update market_items set name = name where id = ?", [listing.itemId]);
    expect(await generation()).toBeGreaterThan(before);
  });

  it("stands still when an item that is not on sale changes", async () => {
    const unlisted = (await m.t.store.sql.get(
      "select id from market_items where id not in (select item_id from market_listings where status = 0) limit 1",
    )) as { id: number };
    const before = await generation();
    await m.t.store.sql.run("update market_items set name = name where id = ?", [unlisted.id]);
    expect(await generation()).toBe(before);
  });

  it("closes listings past their expiry before it is read, so time alone never leaves one on a cached page", async () => {
    const listing = await aListing();
    const expiry = Math.floor(Date.now() / 1000) + 3600;
    await m.t.store.sql.run("update market_listings set expiry = ? where id = ?", [expiry, listing.id]);
    const before = await generation();
    expect(await marketPageGeneration(db, (expiry + 1) * 1000)).toBeGreaterThan(before);
    expect(await m.scalar("select status from market_listings where id = ?", listing.id)).not.toBe(0);
  });
});

describe("the indexer's generation", () => {
  it("moves when a stream's cursor applies a range", async () => {
    const indexed = indexerGenerationReader(m.t.store);
    const before = await indexed();
    await m.t.store.sql.run("insert into market_chain_cursors (stream, block, block_hash, block_time, updated_at) values (?, ?, ?, ?, ?)", [
      "test-stream",
      100,
      null,
      null,
      Date.now(),
    ]);
    const after = await indexed();
    expect(after).not.toBe(before);
    await m.t.store.sql.run("update market_chain_cursors set updated_at = ? where stream = ?", [Date.now() + 1, "test-stream"]);
    expect(await indexed()).toBe(after);
    await m.t.store.sql.run("update market_chain_cursors set block = 101 where stream = ?", ["test-stream"]);
    expect(await indexed()).not.toBe(after);
    await m.t.store.sql.run("delete from market_chain_cursors where stream = ?", ["test-stream"]);
  });
});

describe("the page cache on the market's generation", () => {
  let baseUrl: string;
  let server: Server;
  let renders = 0;

  beforeAll(async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.cspNonce = crypto.randomBytes(16).toString("hex");
      next();
    });
    app.all(
      "*",
      remixHandler({
        // Stands in for the market route: the first listings' prices from the market API, and the user a cookie names.
        handleRequest: async (request, { cspNonce }) => {
          renders++;
          const answer = (await (
            await fetch(`${m.t.baseUrl}${API}/marketplace/tradingMarket?pageSize=5&sort=listed&order=asc`)
          ).json()) as {
            data: Page<ListingRecord>;
          };
          const user = /user=(\w+)/.exec(request.headers.get("Cookie") ?? "")?.[1] ?? "visitor";
          const rows = answer.data.records.map((r) => `<li>${r.tokenId} ${r.price}</li>`).join("");
          return new Response(`<p>${user}</p><ul>${rows}</ul><script nonce="${cspNonce}"></script>`, {
            headers: { "Content-Type": "text/html; charset=utf-8" },
          });
        },
        getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
        cache: { pages: [{ path: "/marketplace/market", generation: pageGenerationReader(m.t.store) }], report: true, version: "test" },
      }),
    );
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function page(cookie?: string) {
    const response = await fetch(`${baseUrl}/marketplace/market?sort=listed-asc`, { headers: cookie ? { Cookie: cookie } : {} });
    return { cache: response.headers.get("x-page-cache"), body: await response.text() };
  }

  it("serves the next visitor a copy, and renders afresh after a listing change", async () => {
    await page();
    expect((await page()).cache).toBe("hit");
    const first = (await m.t.store.sql.get(
      'select l.id, l.token_id as "tokenId" from market_listings l where l.status = 0 order by l.listed_at, l.id limit 1',
    )) as { id: number; tokenId: string };
    await m.t.store.sql.run("update market_listings set price = ? where id = ?", [padWei(123456789n), first.id]);
    const fresh = await page();
    expect(fresh.cache).toBe("miss");
    expect(fresh.body).toContain(`<li>${first.tokenId} 123456789</li>`);
    expect((await page()).cache).toBe("hit");
  });

  it("renders a signed-in user's page for them alone, and never keeps it", async () => {
    await page();
    const before = renders;
    const signedIn = await page("__session=abc; user=alice");
    expect(signedIn.cache).toBeNull();
    expect(signedIn.body).toContain("<p>alice</p>");
    expect(renders).toBe(before + 1);
    const visitor = await page();
    expect(visitor.cache).toBe("hit");
    expect(visitor.body).toContain("<p>visitor</p>");
  });
});

describe("a visitor's view of an item page the cache answers (server/item-views.ts)", () => {
  const request = (url: string, ip: string) => ({ originalUrl: url, ip, headers: {}, socket: {} }) as unknown as ExpressRequest;

  it("is counted as the loader's views/add counts it: once per visitor a day, moving the generation", async () => {
    const listing = await aListing();
    const url = `/marketplace/detail?nftType=${listing.nftType}&tokenId=${listing.tokenId}&back=%2Fmarketplace%2Fmarket`;
    const views = async () => Number(await m.scalar("select views from market_items where id = ?", listing.itemId));
    const count = itemViewCounter(m.t.store, undefined);
    const [before, viewsBefore] = [await generation(), await views()];
    expect(await count(request(url, "10.9.8.7"))).toBe(true);
    expect(await views()).toBe(viewsBefore + 1);
    expect(await generation()).toBeGreaterThan(before);
    // Again from the same network: not counted, by this process (no write) nor by another.
    expect(await count(request(url, "10.9.8.7"))).toBe(false);
    expect(await itemViewCounter(m.t.store, undefined)(request(url, "10.9.8.7"))).toBe(false);
    // Another network: counted.
    expect(await count(request(url, "10.9.8.8"))).toBe(true);
    expect(await views()).toBe(viewsBefore + 2);
    expect(await count(request("/marketplace/detail?nftType=1&tokenId=999999999999", "10.9.8.7"))).toBe(false);
    expect(await count(request("/marketplace/detail", "10.9.8.7"))).toBe(false);
  });
});
