/** The numbers of a view and the price history as the page shows them, and the period in the market's canonical URL. */
import { describe, expect, it } from "vitest";
import type { PriceHistory, ViewNumbers } from "~core/api/market";
import { parseMarketFilter, serializeMarketFilter } from "~/features/market/filters/market";
import { historyView, periodOf, statsView } from "~/features/numbers/numbers.server";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const parse = (query: string) => parseMarketFilter(new URLSearchParams(query));

describe("the period in a market view's URL", () => {
  it("is kept in the canonical URL unless it is the default", () => {
    expect(serializeMarketFilter(parse("nftType=0&period=7d").filter)).toBe("nftType=0&period=7d");
    expect(serializeMarketFilter(parse("period=ALL&nftType=0").filter)).toBe("nftType=0&period=all");
    expect(serializeMarketFilter(parse("nftType=0&period=30d").filter)).toBe("nftType=0");
  });

  it("is dropped with a notice when the market does not know it", () => {
    const { filter, notices } = parse("period=1y");
    expect(filter.period).toBeUndefined();
    expect(notices).toEqual(["Period: “1y” is not 30d, 7d, 90d, all, so the price history shows the last 30 days."]);
    expect(periodOf(new URLSearchParams("period=1y"))).toBe("30d");
    expect(periodOf(new URLSearchParams("period=90D"))).toBe("90d");
  });
});

describe("statsView", () => {
  const numbers: ViewNumbers = {
    floor: [
      { currency: "FIRE", price: (12n * WEI + WEI / 2n).toString(), listed: 3 },
      { currency: "BNB", price: (WEI / 100n).toString(), listed: 1 },
    ],
    listed: { total: 10_000, capped: true },
    windows: [
      { window: "24h", sales: 0, volume: [] },
      { window: "7d", sales: 1, volume: [{ currency: "QUARK", amount: (1234n * WEI).toString() }] },
    ],
    lastSale: { price: (1234n * WEI).toString(), currency: "QUARK", at: "2026-11-27T10:05:00.000Z", tokenId: "1", nftType: 0 },
    asOf: "2026-11-27T12:00:00.000Z",
    changesAt: "2026-12-04T10:05:00.000Z",
  };

  it("says each number as the page shows it: one value per currency, a dash for none", () => {
    expect(statsView(numbers)).toEqual([
      { label: "Floor", values: ["12.5 FIRE", "0.01 BNB"], note: null },
      { label: "Listed", values: ["10,000+"], note: null },
      { label: "24 h volume", values: ["—"], note: "0 sales" },
      { label: "7 d volume", values: ["1,234 QUARK"], note: "1 sale" },
      { label: "Last sale", values: ["1,234 QUARK"], note: "2026-11-27 10:05 UTC" },
    ]);
  });
});

describe("historyView", () => {
  const history: PriceHistory = {
    period: "90d",
    from: "2026-09-01T00:00:00.000Z",
    bucketDays: 3,
    buckets: 30,
    series: [
      {
        currency: "FIRE",
        points: [
          { index: 0, sales: 2, low: WEI.toString(), high: (3n * WEI).toString() },
          { index: 29, sales: 1, low: (2n * WEI).toString(), high: (2n * WEI).toString() },
        ],
      },
    ],
    changesAt: "2026-11-30T00:00:00.000Z",
  };

  it("labels multi-day buckets by their first and last day, with a caption and links for every period", () => {
    const view = historyView(history, (period) => `/m?period=${period}`, true);
    expect(view.heading).toBe("Price history · 90 days");
    expect(view.periods.map((p) => [p.label, p.href, p.current])).toEqual([
      ["7 days", "/m?period=7d", false],
      ["30 days", "/m?period=30d", false],
      ["90 days", "/m?period=90d", true],
      ["All time", "/m?period=all", false],
    ]);
    const [chart] = view.charts;
    expect(chart.caption).toBe("FIRE: 3 sales, from 1 FIRE to 3 FIRE.");
    expect(chart.span).toBe("2026-09-01 – 09-03 → 2026-11-27 – 11-29");
    expect(chart.rows).toEqual([
      ["2026-09-01 – 09-03", "2", "1 FIRE", "3 FIRE"],
      ["2026-11-27 – 11-29", "1", "2 FIRE", "2 FIRE"],
    ]);
    expect(chart.lows).toMatch(/^M5 94L295 50$/);
    expect(view.empty).toBeNull();
  });

  it("says when the period had no sales", () => {
    expect(historyView({ ...history, series: [] }, () => "/", false)).toMatchObject({
      charts: [],
      empty: "No sales in this period.",
      open: false,
    });
  });
});
