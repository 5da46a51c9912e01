/**
 * The alert matcher agrees with the market (issue 30): on random filters over the seeded market, the listings a
 * watch's terms match in memory are exactly the ones tradingMarket's SQL shows for that filter, and the watch's
 * index keys lead to every one of them.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENCIES } from "~core/money";
import { LEVEL_MAX, LEVEL_MIN, NFT_TYPE, NFT_TYPES, PSE_TYPES, EGSE_TYPES } from "~core/nft";
import { MarketDb } from "../../backend/market/shared/db";
import { matchesTerms } from "../../backend/market/shared/filter-terms";
import type { ListingRow } from "../../backend/market/shared/items";
import { LIST_FILTERS, SORT_KEYS, listingQuerySchema } from "../../backend/market/shared/listing-schemas";
import { queryListings } from "../../backend/market/listings/query";
import { watchKeys, watchQuery, watchTerms } from "../../backend/market/watches/watches";
import { startTestBackends } from "./harness";

let t: Awaited<ReturnType<typeof startTestBackends>>;
let db: MarketDb;
let listings: ListingRow[];
let prices: bigint[];
/** An item's active listing (one at most): the market's records name the item. */
let listingOf: Map<string, number>;

beforeAll(async () => {
  t = await startTestBackends();
  db = new MarketDb(t.store);
  listings = await db.all<ListingRow>("select * from market_listings where status = 0");
  listingOf = new Map(listings.map((l) => [`${l.nft_type}:${l.token_id}`, l.id]));
  prices = [...new Set(listings.map((l) => BigInt(l.price)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
});
afterAll(() => t.close());

const LIST_NAMES = Object.keys(LIST_FILTERS).filter((name) => name !== "type") as (keyof typeof LIST_FILTERS)[];

/** Present in one filter of `of`: most random filters of every kind at once would match nothing. */
const sometimes = <T>(arb: fc.Arbitrary<T>, of = 3) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: of - 1 }, { arbitrary: arb, weight: 1 });

/** A random market filter in tradingMarket's wire form (text values, nested ranges). */
const filterArb = fc
  .record({
    nftType: sometimes(fc.constantFrom(...Object.keys(NFT_TYPES).map(Number))),
    lists: fc.array(
      fc
        .constantFrom(...LIST_NAMES)
        .chain((name) => fc.tuple(fc.constant(name), fc.subarray(LIST_FILTERS[name], { minLength: 1, maxLength: 3 }))),
      { maxLength: 1 },
    ),
    typeCodes: sometimes(fc.integer({ min: 0, max: 20 })),
    level: sometimes(fc.tuple(fc.integer({ min: LEVEL_MIN, max: LEVEL_MAX }), fc.integer({ min: LEVEL_MIN, max: LEVEL_MAX }))),
    levelSide: fc.constantFrom("both", "min", "max"),
    price: sometimes(fc.tuple(fc.nat(), fc.nat())),
    priceSide: fc.constantFrom("both", "min", "max"),
    total: sometimes(fc.integer({ min: 0, max: 3000 })),
    currency: sometimes(fc.constantFrom(...CURRENCIES)),
    venue: sometimes(fc.constantFrom("game", "chain")),
    sort: fc.constantFrom(...SORT_KEYS),
  })
  .map((f) => {
    const query: Record<string, unknown> = { sort: f.sort };
    const min: Record<string, string> = {};
    const max: Record<string, string> = {};
    if (f.nftType !== undefined) query.nftType = String(f.nftType);
    for (const [name, codes] of f.lists) query[name] = codes.join(",");
    const typeMap = f.nftType === NFT_TYPE.pse ? PSE_TYPES : f.nftType === NFT_TYPE.egse ? EGSE_TYPES : undefined;
    if (typeMap && f.typeCodes !== undefined) {
      const codes = Object.keys(typeMap).map(Number);
      query.type = String(codes[f.typeCodes % codes.length]);
    }
    if (f.level) {
      const [lo, hi] = [Math.min(...f.level), Math.max(...f.level)];
      if (f.levelSide !== "max") min.level = String(lo);
      if (f.levelSide !== "min") max.level = String(hi);
    }
    if (f.price && prices.length) {
      const [a, b] = f.price.map((i) => prices[i % prices.length]);
      const [lo, hi] = a < b ? [a, b] : [b, a];
      if (f.priceSide !== "max") min.price = lo.toString();
      if (f.priceSide !== "min") max.price = hi.toString();
    }
    if (f.total !== undefined) min.total = String(f.total);
    if (Object.keys(min).length) query.min = min;
    if (Object.keys(max).length) query.max = max;
    if (f.currency) query.currency = f.currency;
    if (f.venue) query.venue = f.venue;
    return query;
  });

/** Every listing tradingMarket shows for the filter, page by page. */
async function marketIds(query: Record<string, unknown>): Promise<Set<number>> {
  const ids = new Set<number>();
  for (let pageNumber = 1; ; pageNumber++) {
    const q = listingQuerySchema.parse({ ...query, pageSize: "100", pageNumber: String(pageNumber) });
    const page = await queryListings(db, { kind: "market" }, q);
    for (const record of page.records) ids.add(listingOf.get(`${record.nftType}:${record.tokenId}`)!);
    if (pageNumber * 100 >= page.total) return ids;
  }
}

describe("the alert matcher and the market's filter", () => {
  it("match the same listings on random filters, and the watch's index keys reach each of them", async () => {
    expect(listings.length).toBeGreaterThan(100);
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(filterArb, async (query) => {
        const terms = watchTerms(watchQuery({ search: "", query }));
        const matched = listings.filter((listing) => matchesTerms(terms, listing));
        expect(new Set(matched.map((l) => l.id))).toEqual(await marketIds(query));
        const keys = watchKeys(terms);
        for (const l of matched) {
          expect(
            keys.some(
              (k) =>
                [l.nft_type, -1].includes(k.nftType) &&
                [l.currency, ""].includes(k.currency) &&
                [l.grade, -1].includes(k.grade) &&
                [l.level ?? -1, -1].includes(k.level),
            ),
          ).toBe(true);
        }
        if (matched.length) nonEmpty++;
      }),
      { numRuns: 300, seed: 30_001 },
    );
    // The filters are not all empty sets: the property says something.
    expect(nonEmpty).toBeGreaterThan(100);
  });
});
