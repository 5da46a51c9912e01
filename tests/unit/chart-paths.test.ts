/** The price-history chart's path builder (app/features/numbers/chart-paths.ts). */
import { describe, expect, it } from "vitest";
import { pricePaths } from "~/features/numbers/chart-paths";
import { WEI_PER_TOKEN } from "~core/money";

const box = { width: 110, height: 120, left: 10, top: 10, bottom: 10 };
const WEI = WEI_PER_TOKEN;

describe("pricePaths", () => {
  it("draws each bucket's range and a line through the lows, scaled between the cheapest and the dearest sale", () => {
    const paths = pricePaths(
      [
        { index: 0, low: 1n * WEI, high: 3n * WEI },
        { index: 4, low: 2n * WEI, high: 2n * WEI },
        { index: 9, low: 5n * WEI, high: 11n * WEI },
      ],
      10,
      box,
    );
    // Columns are 10 wide from x = 10; the plot runs from y = 110 (1 WEI) up to y = 10 (11 WEI), 10 per WEI.
    expect(paths.ranges).toBe("M15 90V110M55 100V100M105 10V70");
    expect(paths.lows).toBe("M15 110L55 100L105 70");
    expect(paths).toMatchObject({ min: 1n * WEI, max: 11n * WEI });
  });

  it("keeps apart prices a float would merge (bigint scaling)", () => {
    const big = 10n ** 30n;
    const paths = pricePaths(
      [
        { index: 0, low: big, high: big },
        { index: 1, low: big + 1n, high: big + 1n },
      ],
      2,
      box,
    );
    expect(paths.lows).toBe("M35 110L85 10");
  });

  it("puts a single price mid-height and draws nothing without sales", () => {
    expect(pricePaths([{ index: 2, low: WEI, high: WEI }], 5, box).lows).toBe("M60 60");
    expect(pricePaths([], 5, box)).toEqual({ ranges: "", lows: "", min: 0n, max: 0n });
  });
});
