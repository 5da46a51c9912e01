/** The listing query contract: filters, ranges, sorts, paging, totals, bad input and query plans. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildListingSql, type ListingScope } from "../../backend/market/listings/query";
import type { ListingRecord } from "~core/api/market";
import { listingQuerySchema, normalizeQuery } from "../../backend/market/shared/listing-schemas";
import { BROWSER, type Market, type Query, startMarket } from "./market-fixture";
import { TEST_ENGINE } from "./engine";

let m: Market;
beforeAll(async () => {
  m = await startMarket();
});
afterAll(() => m.close());

const activeCount = async (where = "true", ...params: unknown[]) =>
  await m.scalar(`select count(*) from market_listings where status = 0 and ${where}`, ...params);

describe("tradingMarket", () => {
  it("answers the first page of active listings, newest first, with the total", async () => {
    const page = await m.page("/marketplace/tradingMarket");
    expect(page.pageNumber).toBe(1);
    expect(page.pageSize).toBe(10);
    expect(page.records).toHaveLength(10);
    expect(page.total).toBe(await activeCount());
    expect(page.totalCapped).toBe(false);
    const times = page.records.map((r) => Date.parse(r.listedAt!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const record of page.records) {
      expect(record.isSelling).toBe(true);
      expect(record.price).toMatch(/^[1-9]\d*$/);
      expect(["FIRE", "QUARK", "USDT", "BNB"]).toContain(record.currency);
      expect(record.tokenURI).toBe(
        `/api/v1/metadata/${record.nftType}/${record.tokenId}${record.nftType === 6 ? `/${record.boxType}` : ""}`,
      );
      expect(record.image).toMatch(/^\/images\/nft\/[a-z]+-(common|rare|epic|legend)\.svg$/);
      expect(record.attributes[0]).toEqual({ trait_type: "Type", value: record.nftTypeName });
    }
  });

  // Each case: query, the SQL condition it must equal, and a check per record.
  const cases: [string, Query, string, (r: ListingRecord) => boolean][] = [
    ["nftType", { nftType: 0 }, "nft_type = 0", (r) => r.nftType === 0],
    ["camp", { camp: 1 }, "camp = 1", (r) => r.camp === 1],
    ["rarity list", { rarity: "2,3" }, "rarity in (2, 3)", (r) => [2, 3].includes(r.rarity!)],
    ["identity", { nftType: 0, identity: "0,1" }, "nft_type = 0 and identity in (0, 1)", (r) => [0, 1].includes(r.identity!)],
    ["profession", { profession: 4 }, "profession = 4", (r) => r.profession === 4],
    ["material", { nftType: 8, material: 2 }, "nft_type = 8 and material = 2", (r) => r.material === 2],
    ["rank", { nftType: 4, rank: "3,4" }, "nft_type = 4 and spaceship_type in (3, 4)", (r) => r.rank! >= 3],
    ["pse type", { nftType: 2, type: "1,4" }, "nft_type = 2 and pse_type in (1, 4)", (r) => [1, 4].includes(r.pseType!)],
    ["egse type", { nftType: 3, type: 3 }, "nft_type = 3 and egse_type = 3", (r) => r.egseType === 3],
    ["eggType", { eggType: 2 }, "egg_type = 2", (r) => r.eggType === 2],
    ["equipmentType", { equipmentType: "3,4" }, "equipment_type in (3, 4)", (r) => r.equipmentType! >= 3],
    ["equipmentCode", { equipmentCode: "13,14" }, "equipment_code in (13, 14)", (r) => [13, 14].includes(r.equipmentCode!)],
    ["boxType", { nftType: 6, boxType: "7,17" }, "nft_type = 6 and box_type in (7, 17)", (r) => [7, 17].includes(r.boxType!)],
    ["currency", { currency: "usdt" }, "currency = 'USDT'", (r) => r.currency === "USDT"],
    ["level range", { "min[level]": 3, "max[level]": 5 }, "level between 3 and 5", (r) => r.level! >= 3 && r.level! <= 5],
    [
      "price range",
      { "min[price]": "100000000000000000000", "max[price]": "5000000000000000000000" },
      `price between '${"100000000000000000000".padStart(78, "0")}' and '${"5000000000000000000000".padStart(78, "0")}'`,
      (r) => BigInt(r.price!) >= 10n ** 20n && BigInt(r.price!) <= 5n * 10n ** 21n,
    ],
    ["total range", { nftType: 4, "min[total]": 300 }, "nft_type = 4 and total >= 300", (r) => r.total! >= 300],
    ["stat range", { "max[endurance]": 40, "min[crit]": 20 }, "endurance <= 40 and crit >= 20", (r) => r.endurance! <= 40 && r.crit! >= 20],
    [
      "combined",
      { nftType: 0, camp: "0,2", rarity: "1,2,3", "min[level]": 2 },
      "nft_type = 0 and camp in (0, 2) and rarity >= 1 and level >= 2",
      (r) => [0, 2].includes(r.camp!) && r.rarity! >= 1 && r.level! >= 2,
    ],
  ];

  it.each(cases)("filter %s narrows to exactly the matching listings", async (_name, query, where, check) => {
    const expected = await activeCount(where);
    const page = await m.page("/marketplace/tradingMarket", { ...query, pageSize: 100 });
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(await activeCount());
    expect(page.total).toBe(expected);
    expect(page.records).toHaveLength(Math.min(100, expected));
    expect(page.records.every(check)).toBe(true);
  });

  const keys: [string, (r: ListingRecord) => bigint][] = [
    ["price", (r) => BigInt(r.price!)],
    ["listed", (r) => BigInt(Date.parse(r.listedAt!))],
    ["views", (r) => BigInt(r.views)],
    ["favorites", (r) => BigInt(r.favorites)],
    ["total", (r) => BigInt(r.total!)],
  ];
  it.each(keys)("sorts by %s in both directions", async (sort, key) => {
    for (const order of ["asc", "desc"] as const) {
      const page = await m.page("/marketplace/tradingMarket", {
        sort,
        order,
        pageSize: 50,
        currency: sort === "price" ? "FIRE" : undefined,
      });
      const values = page.records.map(key);
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(values).toEqual(order === "asc" ? sorted : sorted.reverse());
      // The most-first end always shows some spread (a few items have favorites, most have none).
      if (order === "desc") expect(new Set(values).size).toBeGreaterThan(1);
    }
  });

  it.each(["asc", "desc"])(
    "sorts by price %s within each currency, currencies A to Z, never comparing amounts across tokens",
    async (order) => {
      const query = { sort: "price", order, pageSize: 100 };
      const seen: ListingRecord[] = [];
      for (let pageNumber = 1; pageNumber <= 3; pageNumber++)
        seen.push(...(await m.page("/marketplace/tradingMarket", { ...query, pageNumber })).records);
      const currencies = seen.map((r) => r.currency!);
      expect(new Set(currencies).size).toBeGreaterThan(1);
      expect(currencies).toEqual([...currencies].sort());
      for (let i = 1; i < seen.length; i++) {
        if (seen[i].currency !== seen[i - 1].currency) continue;
        const [before, after] = [BigInt(seen[i - 1].price!), BigInt(seen[i].price!)];
        expect(order === "asc" ? before <= after : before >= after).toBe(true);
      }
    },
  );

  // Each access path (and the lazy merge of its walks) must agree with a plain query over the table.
  const paths: [Query, string, string][] = [
    [{ nftType: 0, camp: "1,2", sort: "price" }, "nft_type = 0 and camp in (1, 2)", "price asc"],
    [{ nftType: 0, rarity: "1,3", order: "asc" }, "nft_type = 0 and rarity in (1, 3)", "listed_at asc"],
    [{ nftType: 4, rank: "2,3", sort: "price", order: "desc" }, "nft_type = 4 and spaceship_type in (2, 3)", "price desc"],
    [{ sort: "price", order: "desc" }, "true", "price desc"],
    [{ nftType: 7, sort: "price" }, "nft_type = 7", "price asc"],
    [{ sort: "views" }, "true", "views desc"],
    [{ nftType: 2, type: "1,3,5" }, "nft_type = 2 and pse_type in (1, 3, 5)", "listed_at desc"],
    [{ sort: "total", order: "asc" }, "nft_type = 4", "total asc"],
    [
      { nftType: 6, boxType: "4,5", currency: "QUARK", sort: "price", order: "desc" },
      "nft_type = 6 and box_type in (4, 5) and currency = 'QUARK'",
      "price desc",
    ],
    [{ nftType: 0, camp: 3, sort: "listed", "min[level]": 2 }, "nft_type = 0 and camp = 3 and level >= 2", "listed_at desc"],
  ];
  it.each(paths)("%j pages like a plain ORDER BY", async (query, where, order) => {
    const [column, dir] = order.split(" ");
    // A price sort groups by currency first (A to Z), whichever the direction.
    const group = column === "price" ? "currency, " : "";
    const expected = (
      await m.t.store.sql.all(
        `select nft_type || ':' || token_id as ref from market_listings where status = 0 and ${where} order by ${group}${column} ${dir}, id ${dir} limit 20 offset 20`,
      )
    ).map((row) => (row as { ref: string }).ref);
    const page = await m.page("/marketplace/tradingMarket", { ...query, pageSize: 20, pageNumber: 2 });
    expect(page.records.map((r) => `${r.nftType}:${r.tokenId}`)).toEqual(expected);
    expect(page.total).toBe(await activeCount(where));
  });

  it("pages consistently: two pages of 5 are the first page of 10", async () => {
    const query = { nftType: 0, sort: "price", order: "desc" };
    const [one, two, ten] = await Promise.all([
      m.page("/marketplace/tradingMarket", { ...query, pageSize: 5, pageNumber: 1 }),
      m.page("/marketplace/tradingMarket", { ...query, pageSize: 5, pageNumber: 2 }),
      m.page("/marketplace/tradingMarket", { ...query, pageSize: 10 }),
    ]);
    expect([...one.records, ...two.records].map((r) => r.tokenId)).toEqual(ten.records.map((r) => r.tokenId));
    expect(one.total).toBe(ten.total);
    const last = await m.page("/marketplace/tradingMarket", { ...query, pageSize: 100, pageNumber: Math.ceil(ten.total / 100) });
    expect(last.records).toHaveLength(ten.total % 100 || 100);
    const beyond = await m.page("/marketplace/tradingMarket", { ...query, pageSize: 100, pageNumber: Math.ceil(ten.total / 100) + 1 });
    expect(beyond.records).toEqual([]);
  });

  it("takes pageSize 9999 for loot boxes only", async () => {
    const boxes = await m.page("/marketplace/tradingMarket", { nftType: 6, pageSize: 9999 });
    expect(boxes.records).toHaveLength(await activeCount("nft_type = 6"));
    expect((await m.get("/marketplace/tradingMarket", { nftType: 0, pageSize: 9999 })).status).toBe(400);
    expect((await m.get("/marketplace/tradingMarket", { pageSize: 101 })).status).toBe(400);
  });

  it("marks the favorites of the wallet named by address", async () => {
    const fan = await m.scalar<string>(
      "select f.address from market_favorites f join market_listings l on l.item_id = f.item_id and l.status = 0 limit 1",
    );
    const page = await m.page("/marketplace/tradingMarket", { address: fan, pageSize: 100, sort: "favorites" });
    expect(page.records.some((r) => r.isFavorite)).toBe(true);
    expect(page.records.every((r) => typeof r.isFavorite === "boolean")).toBe(true);
  });
});

describe("wallet lists", () => {
  it("myStorage lists every item of the wallet, listed ones first by listing time", async () => {
    const page = await m.page("/informationCenter/myStorage", { address: BROWSER.wallet.toLowerCase(), pageSize: 100 });
    expect(page.total).toBe(await m.scalar("select count(*) from market_items where owner_address = ?", BROWSER.wallet));
    expect(page.total).toBeGreaterThanOrEqual(20);
    expect(page.records.every((r) => r.ownerAddress === BROWSER.wallet)).toBe(true);
    const selling = page.records.findIndex((r) => !r.isSelling);
    expect(selling).toBeGreaterThan(0);
    expect(page.records.slice(selling).every((r) => !r.isSelling)).toBe(true);
    expect(new Set(page.records.map((r) => r.nftType)).size).toBe(9);
    const cards = await m.page("/informationCenter/myStorage", { address: BROWSER.wallet, nftType: 0 });
    expect(cards.records.every((r) => r.nftType === 0)).toBe(true);
    expect(cards.total).toBe(await m.scalar("select count(*) from market_items where owner_address = ? and nft_type = 0", BROWSER.wallet));
  });

  it("myStorage with a location lists the wallet's items held there only (a player page's chain items)", async () => {
    const sql = m.t.store.sql;
    const ids = await sql.all<{ id: number }>("select id from market_items where owner_address = ? order by id limit 2", [BROWSER.wallet]);
    await sql.run(
      `update market_items set location = 2 where id in (${ids.map(() => "?").join(",")})`,
      ids.map((row) => row.id),
    );
    try {
      const chain = await m.page("/informationCenter/myStorage", { address: BROWSER.wallet, location: "chain", pageSize: 100 });
      expect(chain.total).toBe(2);
      expect(chain.records.every((r) => r.location === "chain" && r.ownerAddress === BROWSER.wallet)).toBe(true);
      const game = await m.page("/informationCenter/myStorage", { address: BROWSER.wallet, location: "game", pageSize: 100 });
      expect(game.records.every((r) => r.location === "game")).toBe(true);
      expect((await m.get("/informationCenter/myStorage", { address: BROWSER.wallet, location: "moon" })).msg).toMatch(/^location: /);
    } finally {
      await sql.run(
        `update market_items set location = 0 where id in (${ids.map(() => "?").join(",")})`,
        ids.map((row) => row.id),
      );
    }
  });

  it("selling lists the wallet's active listings", async () => {
    const page = await m.page("/informationCenter/selling", { address: BROWSER.wallet, pageSize: 100 });
    expect(page.total).toBe(await activeCount("seller_address = ?", BROWSER.wallet));
    expect(page.records.every((r) => r.isSelling && r.sellerAddress === BROWSER.wallet)).toBe(true);
  });

  it("myFavorite lists the wallet's favorites", async () => {
    const fan = await m.scalar<string>("select address from market_favorites group by address order by count(*) desc limit 1");
    const page = await m.page("/informationCenter/myFavorite", { address: fan, pageSize: 100 });
    expect(page.total).toBe(await m.scalar("select count(*) from market_favorites where address = ?", fan));
    expect(page.records.every((r) => r.isFavorite === true)).toBe(true);
  });

  it("needs the address", async () => {
    for (const path of ["/informationCenter/myStorage", "/informationCenter/selling", "/informationCenter/myFavorite"]) {
      const answer = await m.get(path);
      expect(answer.status).toBe(400);
      expect(answer.msg).toMatch(/^address: required/);
    }
  });
});

describe("bad input answers 400 naming the parameter", () => {
  const bad: [Query | string, string][] = [
    [{ pageSize: "abc" }, "pageSize"],
    [{ pageNumber: 0 }, "pageNumber"],
    [{ pageNumber: 2000, pageSize: 10 }, "pageNumber"],
    [{ "min[level]": "x" }, "min[level]"],
    [{ "max[level]": 11 }, "max[level]"],
    [{ "min[level]": 5, "max[level]": 2 }, "min[level]"],
    [{ "min[price]": "1e18" }, "min[price]"],
    [{ "min[price]": "-1" }, "min[price]"],
    [{ "min[foo]": 1 }, "min"],
    [{ min: 5 }, "min"],
    [{ sort: "evil" }, "sort"],
    [{ order: "sideways" }, "order"],
    [{ nftType: 12 }, "nftType"],
    [{ nftType: "0 OR 1=1" }, "nftType"],
    [{ rarity: "1;drop table market_items" }, "rarity"],
    [{ camp: "0,9" }, "camp"],
    [{ type: 1 }, "type"],
    [{ nftType: 3, type: 5 }, "type"],
    [{ currency: "DOGE" }, "currency"],
    [{ address: "' or 1=1 --" }, "address"],
    [{ address: "0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266x" }, "address"],
    ["camp[a]=1", "camp"],
    ["pageSize[]=1&pageSize[]=2", "pageSize"],
  ];
  it.each(bad)("%j → 400 on %s", async (query, name) => {
    const answer =
      typeof query === "string"
        ? await m.t.call("GET", `/api/v1/marketplace/tradingMarket?${query}`)
        : await m.get("/marketplace/tradingMarket", query);
    expect(answer.status).toBe(400);
    expect(answer.success).toBe(false);
    expect(answer.msg.startsWith(`${name}: `)).toBe(true);
  });

  it("accepts a mixed-case address only with a valid checksum", async () => {
    const lower = BROWSER.wallet.toLowerCase();
    const broken = lower.slice(0, 2) + lower.slice(2, 3).toUpperCase() + lower.slice(3);
    expect((await m.get("/informationCenter/myStorage", { address: lower })).status).toBe(200);
    expect((await m.get("/informationCenter/myStorage", { address: broken })).status).toBe(400);
  });

  it("answers unknown paths with the envelope", async () => {
    const answer = await m.get("/marketplace/nothing");
    expect(answer).toMatchObject({ status: 404, success: false });
  });
});

// SQLite's plans, pinned by its `indexed by` hints; PostgreSQL plans by its own statistics (the P3 bench measures it).
describe.skipIf(TEST_ENGINE !== "sqlite")("query plans use indexes", () => {
  const plan = (scope: ListingScope, query: Query) => {
    const q = listingQuerySchema.parse(normalizeQuery(nest(query)));
    const sql = buildListingSql(scope, q, "sqlite");
    const explain = (text: string, params: unknown[]) =>
      (m.t.store.sqlite!.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[]).map((row) => row.detail);
    return { page: explain(sql.page, sql.pageParams), count: explain(sql.count, sql.countParams) };
  };
  const fullScan = (lines: string[]) =>
    lines.filter((line) => /^SCAN (l|i|f)$/.test(line) || /^SCAN market_(items|listings)\b(?! USING)/.test(line));

  const market: [string, Query][] = [
    ["newest", {}],
    ["type + rarity by price", { nftType: 0, rarity: 2, sort: "price" }],
    ["spaceships by total", { nftType: 4, rank: "3,4", "min[total]": 250, sort: "total" }],
    ["camp + levels, newest", { nftType: 0, camp: 1, "min[level]": 3, "max[level]": 7 }],
    ["currency + price range", { currency: "USDT", "min[price]": "1000000000000000000", sort: "price" }],
    ["loot boxes by price", { nftType: 6, boxType: 7, sort: "price", order: "desc" }],
    ["most viewed equipment", { nftType: 7, equipmentType: 4, sort: "views" }],
    ["most favorited", { sort: "favorites" }],
  ];
  it.each(market)("market: %s reads an index in sort order, never the whole table", (_name, query) => {
    const { page, count } = plan({ kind: "market" }, query);
    expect(fullScan(page), page.join("\n")).toEqual([]);
    expect(fullScan(count), count.join("\n")).toEqual([]);
    expect(page.join("\n")).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  });

  it("counts a level range by seeking levels in the facet index, not scanning a range", () => {
    const query = { nftType: 0, camp: "1,2", rarity: "0,1", "min[level]": 1, "max[level]": 8, currency: "FIRE", sort: "price" };
    const { count } = plan({ kind: "market" }, query);
    expect(count.join("\n")).toMatch(/COVERING INDEX market_listings_a_facet_grade \(nft_type=\? AND grade=\? AND level=\?/);
    // An open end runs to the last level.
    const { count: open } = plan({ kind: "market" }, { nftType: 0, "min[level]": 8 });
    expect(open.join("\n")).toMatch(/level=\?/);
  });

  it.each([
    ["storage", { kind: "owned", owner: BROWSER.wallet, gameOnly: false }],
    ["game inventory", { kind: "owned", owner: BROWSER.wallet, gameOnly: true }],
    ["favorites", { kind: "favorites", address: BROWSER.wallet }],
    ["selling", { kind: "market", seller: BROWSER.wallet }],
  ] as [string, ListingScope][])("%s starts from the wallet's index", (_name, scope) => {
    const { page, count } = plan(scope, { nftType: 4, "min[price]": "1", sort: "price" });
    expect(fullScan([...page, ...count]), [...page, ...count].join("\n")).toEqual([]);
    expect(page.join("\n")).toMatch(/market_items_owner|market_favorites|market_listings_seller|PRIMARY KEY/);
  });
});

/** "min[level]" keys → nested objects, as Express's query parser hands them over. */
function nest(query: Query): Record<string, unknown> {
  return normalizeQuery(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === undefined ? undefined : String(v)])));
}
