import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { STALE_FORM_MESSAGE } from "~/features/actions/action-forms.server";
import { buySchema, OpenAllSchema, OpenBoughtSchema, OpenSchema } from "~/features/lootbox/lootbox-schemas.server";
import { buyOffer } from "~/features/lootbox/lootbox-offer";
import { findBox } from "~core/boxes";

const KEY = "k3y_-0123456789abcdef";
const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
};
const errors = (result: { reply(): { error?: Record<string, string[] | null> | null } }) => result.reply().error ?? {};

describe("the managed wallet's buy form", () => {
  it("takes a currency the box accepts and 1 to 10 boxes", () => {
    const result = parseWithZod(form({ currency: "BNB", quantity: "3", idempotencyKey: KEY }), { schema: buySchema(4) });
    expect(result.status === "success" && result.value).toEqual({ currency: "BNB", quantity: 3, idempotencyKey: KEY });
  });

  it("refuses any currency but QUARK for the V3-Galaxy box, in the executor's words", () => {
    for (const currency of ["USDT", "BNB", "FIRE", "quark"]) {
      const result = parseWithZod(form({ currency, quantity: "1", idempotencyKey: KEY }), { schema: buySchema(18) });
      expect(errors(result).currency, currency).toEqual(["The V3-Galaxy loot box can be paid only in QUARK."]);
    }
  });

  it.each(["0", "11", "-1", "1.5", "abc", " "])("refuses the quantity %j", (quantity) => {
    const result = parseWithZod(form({ currency: "USDT", quantity, idempotencyKey: KEY }), { schema: buySchema(4) });
    expect(errors(result).quantity).toEqual(["Choose how many boxes to buy, from 1 to 10"]);
  });

  it.each(["", "short", "has space in it", "x".repeat(101), "ünïcode-key"])("refuses the idempotency key %j as a stale form", (key) => {
    const result = parseWithZod(form({ currency: "USDT", quantity: "1", idempotencyKey: key }), { schema: buySchema(4) });
    expect(errors(result).idempotencyKey).toEqual([STALE_FORM_MESSAGE]);
  });
});

describe("the managed wallet's open forms", () => {
  it("open x N takes a count, never the page's box ids (the opener picks the boxes)", () => {
    const result = parseWithZod(form({ count: "2", boxIds: "9,4,7", idempotencyKey: KEY }), { schema: OpenSchema });
    expect(result.status === "success" && result.value).toEqual({ count: 2, idempotencyKey: KEY });
  });

  it("open all takes every box listed", () => {
    const result = parseWithZod(form({ boxIds: "9,4,7", idempotencyKey: KEY }), { schema: OpenAllSchema });
    expect(result.status === "success" && result.value.boxIds).toEqual(["9", "4", "7"]);
  });

  it.each(["0", "11", "two"])("refuses to open %j boxes at a time", (count) => {
    const result = parseWithZod(form({ count, boxIds: "1,2", idempotencyKey: KEY }), { schema: OpenSchema });
    expect(errors(result).count).toEqual(["Choose how many boxes to open, from 1 to 10"]);
  });

  it.each([
    ["", "none"],
    ["1,1", "a box twice"],
    ["0", "id 0"],
    ["01", "a leading zero"],
    ["1,-2", "a sign"],
    ["0x10", "hex"],
    ["1".repeat(78), "more than uint256"],
    [Array.from({ length: 101 }, (_, i) => i + 1).join(","), "more than one action's worth"],
  ])("refuses a tampered box list (%s: %s) as a stale form", (boxIds) => {
    const result = parseWithZod(form({ boxIds, idempotencyKey: KEY }), { schema: OpenAllSchema });
    expect(errors(result).boxIds).toEqual([STALE_FORM_MESSAGE]);
  });

  it("open now names an execution, never box ids", () => {
    expect(parseWithZod(form({ executionId: "a".repeat(32), idempotencyKey: KEY }), { schema: OpenBoughtSchema }).status).toBe("success");
    const result = parseWithZod(form({ executionId: "../../etc", idempotencyKey: KEY, boxIds: "1" }), { schema: OpenBoughtSchema });
    expect(errors(result).executionId).toEqual([STALE_FORM_MESSAGE]);
  });
});

describe("buyOffer", () => {
  const ether = (n: bigint) => n * 10n ** 18n;
  const limits = { maxQuantity: 3, remainingToday: null };

  it("offers the catalogue's currencies the sale prices, in catalogue order, and the total of each quantity", () => {
    const offer = buyOffer(findBox(4)!, { BNB: 3n * 10n ** 16n, USDT: ether(10n) }, limits, null);
    expect(offer.currencies).toEqual([
      { currency: "USDT", each: "10 USDT" },
      { currency: "BNB", each: "0.03 BNB" },
    ]);
    expect(offer.totals).toEqual(["10 USDT · 0.03 BNB", "20 USDT · 0.06 BNB", "30 USDT · 0.09 BNB"]);
    expect(offer.maxQuantity).toBe(3);
  });

  it("never offers a currency the catalogue does not take for the box, whatever the sale says", () => {
    const offer = buyOffer(findBox(18)!, { QUARK: ether(100n), USDT: ether(1n) }, limits, null);
    expect(offer.currencies.map((c) => c.currency)).toEqual(["QUARK"]);
  });

  it("offers nothing when the limits allow nothing, and says why", () => {
    const offer = buyOffer(
      findBox(18)!,
      { QUARK: ether(100n) },
      { maxQuantity: 0, remainingToday: 0 },
      "You have reached the 24-hour limit.",
    );
    expect(offer).toMatchObject({ totals: [], maxQuantity: 0, blockedNote: "You have reached the 24-hour limit.", remainingToday: 0 });
  });

  it("offers nothing for a box the sale has no price for", () => {
    expect(buyOffer(findBox(5)!, {}, limits, null)).toMatchObject({ currencies: [], totals: [], maxQuantity: 0 });
  });
});
