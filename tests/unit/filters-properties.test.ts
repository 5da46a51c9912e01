import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SORT,
  LIST_FILTERS,
  PAGE_SIZES,
  RANGE_FILTERS,
  listKeysFor,
  rangeKeysFor,
  sortOptionsFor,
  type MarketFilter,
  VENUES,
} from "~/features/market/filters/market-options";
import { NFT_TYPE_CODES, RESULT_WINDOW, isCanonical } from "~/features/market/filters/shared";

import { parseMarketFilter, serializeMarketFilter } from "~/features/market/filters/market";

import { CURRENCIES } from "~core/money";

const parse = (search: string) => parseMarketFilter(new URLSearchParams(search));

const defined = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function rangeArb<T>(bound: fc.Arbitrary<T>, lessOrEqual: (a: T, b: T) => boolean) {
  return fc
    .record({ a: fc.option(bound, { nil: undefined }), b: fc.option(bound, { nil: undefined }) })
    .filter(({ a, b }) => a !== undefined || b !== undefined)
    .map(({ a, b }) =>
      a !== undefined && b !== undefined && !lessOrEqual(a, b) ? defined({ min: b, max: a }) : defined({ min: a, max: b }),
    );
}

/** Any filter the codec can produce: only attributes of the chosen type, lists sorted, ranges ordered. */
const filterArb: fc.Arbitrary<MarketFilter> = fc.option(fc.constantFrom(...NFT_TYPE_CODES), { nil: undefined }).chain((nftType) =>
  fc
    .record({
      lists: fc.record(
        Object.fromEntries(
          listKeysFor(nftType).map((key) => [
            key,
            fc
              .uniqueArray(fc.constantFrom(...Object.keys(LIST_FILTERS[key].options).map(Number)), { minLength: 1 })
              .map((codes) => codes.sort((x, y) => x - y)),
          ]),
        ),
        { requiredKeys: [] },
      ),
      ranges: fc.record(
        Object.fromEntries(
          rangeKeysFor(nftType).map((key) => [
            key,
            rangeArb(fc.integer({ min: RANGE_FILTERS[key].min, max: RANGE_FILTERS[key].max }), (x, y) => x <= y),
          ]),
        ),
        { requiredKeys: [] },
      ),
      currency: fc.option(fc.constantFrom(...CURRENCIES), { nil: undefined }),
      venue: fc.option(fc.constantFrom(...VENUES), { nil: undefined }),
      price: fc.option(
        rangeArb(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (x, y) => x <= y),
        { nil: undefined },
      ),
      sort: fc.constantFrom(...sortOptionsFor(nftType).map((option) => option.value)),
      pageSize: fc.constantFrom(...PAGE_SIZES),
    })
    .chain((rest) =>
      fc.integer({ min: 1, max: RESULT_WINDOW / rest.pageSize }).map((page) => defined({ nftType, ...rest, page }) as MarketFilter),
    ),
);

describe("market filter properties", () => {
  it("parse ∘ serialize is the identity on filters, with no notices", () => {
    fc.assert(
      fc.property(filterArb, (filter) => {
        const parsed = parse(serializeMarketFilter(filter));
        expect(parsed.notices).toEqual([]);
        expect(parsed.filter).toEqual(filter);
      }),
      { numRuns: 500 },
    );
  });

  it("serialize ∘ parse is the identity on canonical URLs, which need no redirect", () => {
    fc.assert(
      fc.property(filterArb, (filter) => {
        const url = serializeMarketFilter(filter);
        expect(serializeMarketFilter(parse(url).filter)).toBe(url);
        expect(isCanonical(`?${url}`, url)).toBe(true);
        expect(new URLSearchParams(url).toString().replace(/%2C/g, ",")).toBe(url);
      }),
      { numRuns: 500 },
    );
  });

  it("any query at all parses without throwing, and its canonical form is a fixed point (no redirect loops)", () => {
    const keys = [
      "nftType",
      "camp",
      "faction",
      "rank",
      "pse",
      "type",
      "level",
      "total",
      "price",
      "currency",
      "venue",
      "sort",
      "order",
      "page",
      "pageSize",
      "x",
    ];
    const values = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer({ min: -5, max: 120 }).map(String),
      fc.constantFrom("", ",", "1,2", "9,1", "0.5,", "spaceship", "price-asc", "chain", "all"),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...keys), values), { maxLength: 8 }), (pairs) => {
        const once = serializeMarketFilter(parseMarketFilter(new URLSearchParams(pairs)).filter);
        const again = parse(once);
        expect(again.notices).toEqual([]);
        expect(serializeMarketFilter(again.filter)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  it("defaults are what an empty query gives", () => {
    expect(parse("").filter).toEqual({ lists: {}, ranges: {}, sort: DEFAULT_SORT, pageSize: 10, page: 1 });
  });
});
