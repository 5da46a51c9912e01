/** Product §7 sale terms as the pages state them (core/sale-terms.ts, decision 0018). */
import { describe, expect, it } from "vitest";
import { openByCount, priceReason, SALE_PRICE_KIND, saleNotStartedMessage, saleOpening } from "~core/sale-terms";
import { purchaseBlockedNote, purchaseLimits } from "~/features/lootbox/lootbox-rules";

const NOW = 1_790_000_000n;
const HOUR = 3_600n;
const DAY = 24n * HOUR;

describe("saleOpening", () => {
  it("is open from the start date's second on", () => {
    expect(saleOpening(NOW, NOW)).toEqual({ open: true });
    expect(saleOpening(NOW - 1n, NOW)).toEqual({ open: true });
  });

  it("says when it opens, in UTC, and a countdown in days and hours, rounded down", () => {
    expect(saleOpening(NOW + 2n * DAY + 3n * HOUR + 59n * 60n, NOW)).toEqual({
      open: false,
      opensAt: "2026-09-23 18:12 UTC",
      countdown: "2 d 3 h",
    });
    expect(saleOpening(NOW + 2n * DAY, NOW)).toMatchObject({ countdown: "2 d" });
    expect(saleOpening(NOW + 5n * HOUR + 30n, NOW)).toMatchObject({ countdown: "5 h" });
  });

  it("counts minutes within the hour and seconds within the minute", () => {
    expect(saleOpening(NOW + 45n * 60n + 10n, NOW)).toMatchObject({ countdown: "45 m" });
    expect(saleOpening(NOW + 59n, NOW)).toMatchObject({ countdown: "59 s" });
  });
});

describe("priceReason", () => {
  it("names the variant the buyer pays, and nothing for the list price", () => {
    expect(priceReason(SALE_PRICE_KIND.pse)).toBe("PSE holder price");
    expect(priceReason(SALE_PRICE_KIND.whitelist)).toBe("Whitelist price");
    expect(priceReason(SALE_PRICE_KIND.list)).toBeNull();
  });
});

describe("saleNotStartedMessage", () => {
  it("names the start in UTC", () => {
    expect(saleNotStartedMessage(NOW)).toBe("This box is not on sale yet: it goes on sale at 2026-09-21 14:13 UTC.");
  });
});

describe("purchase limits before the start date", () => {
  const sale = { globalLimit: 100n, sold: 0n, limitPerAddress: 0n, window: null };

  it("allows nothing and says when the sale opens", () => {
    const limits = purchaseLimits({ ...sale, opening: saleOpening(NOW + DAY + HOUR, NOW) });
    expect(limits.maxQuantity).toBe(0);
    expect(purchaseBlockedNote(limits)).toBe("Not on sale yet: opens in 1 d 1 h, at 2026-09-22 15:13 UTC.");
  });

  it("is unchanged once open", () => {
    expect(purchaseLimits({ ...sale, opening: { open: true } }).maxQuantity).toBe(10);
  });
});

describe("openByCount", () => {
  it("uses batchOpen(count) when every box the wallet holds is of the type", () => {
    expect(openByCount(4, 3, [4, 4, 4])).toEqual({ functionName: "batchOpen", args: [3n] });
  });

  it("names the type when the wallet holds others, which batchOpen(count) could open instead", () => {
    expect(openByCount(4, 2, [4, 6, 4])).toEqual({ functionName: "batchOpenOfType", args: [4n, 2n] });
  });
});
