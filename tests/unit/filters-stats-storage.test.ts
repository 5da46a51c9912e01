import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseStatsFilter, serializeStatsFilter, toStatsQuery } from "~/features/market/filters/statistics";
import { parseStorageFilter, serializeStorageFilter } from "~/features/market/filters/storage";

describe("statistics filter", () => {
  it("reads the product spec's statistics filters and writes them canonically", () => {
    const { filter, notices } = parseStatsFilter(new URLSearchParams("level=3&pse=4&period=7d&currency=usdt"));
    expect(notices).toEqual([]);
    expect(serializeStatsFilter(filter)).toBe("nftType=2&pse=4&level=3&period=7d&currency=USDT");
    expect(toStatsQuery(filter)).toEqual({
      pageNumber: 1,
      pageSize: 10,
      period: "7d",
      nftType: 2,
      type: [4],
      level: [3],
      currency: "USDT",
    });
  });

  it("drops what does not fit: level 10, a rank on hero cards, an unknown period", () => {
    const { filter, notices } = parseStatsFilter(new URLSearchParams("nftType=0&rank=2&level=10&period=1y&camp=3"));
    expect(serializeStatsFilter(filter)).toBe("nftType=0&camp=3");
    expect(notices).toHaveLength(3);
  });

  it("is a fixed point on its own output", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom("nftType", "camp", "rarity", "pse", "egse", "rank", "level", "period", "page"),
            fc.string({ maxLength: 4 }),
          ),
          { maxLength: 6 },
        ),
        (pairs) => {
          const once = serializeStatsFilter(parseStatsFilter(new URLSearchParams(pairs)).filter);
          const again = parseStatsFilter(new URLSearchParams(once));
          expect(again.notices).toEqual([]);
          expect(serializeStatsFilter(again.filter)).toBe(once);
        },
      ),
    );
  });
});

describe("storage filter", () => {
  it("has tabs, a type and a page; the default tab is left out", () => {
    expect(serializeStorageFilter(parseStorageFilter(new URLSearchParams("page=2&tab=favorites&nftType=4")).filter)).toBe(
      "tab=favorites&nftType=4&page=2",
    );
    expect(serializeStorageFilter(parseStorageFilter(new URLSearchParams("tab=items")).filter)).toBe("");
    const bad = parseStorageFilter(new URLSearchParams("tab=secret"));
    expect(bad.filter.tab).toBe("items");
    expect(bad.notices[0]).toMatch(/Tab: “secret”/);
  });
});
