import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeItem, decodeItemData } from "~core/item-data";
import { formatPrice } from "~core/money";
import { describeItem } from "~/components/item-list";
import { formatChainTime, INSUFFICIENT_BALANCE } from "~core/chain-errors";
import { checkPurchase, clampOpenCount, openBatches, purchaseBlockedNote, purchaseLimits } from "~/features/lootbox/lootbox-rules";

const ether = (whole: bigint) => whole * 10n ** 18n;

describe("checkPurchase (product §5)", () => {
  it("refuses when the balance does not cover price × quantity, in the product spec's words", () => {
    expect(checkPurchase({ currency: "USDT", unitPrice: ether(10n), quantity: 3, balance: ether(29n), allowance: ether(100n) })).toEqual({
      ok: false,
      message: INSUFFICIENT_BALANCE,
    });
    expect(INSUFFICIENT_BALANCE).toBe("Transaction failed. You do not have enough balance.");
  });

  it("raises the allowance only when it is below the total", () => {
    const base = { currency: "USDT" as const, unitPrice: ether(10n), quantity: 3, balance: ether(30n) };
    expect(checkPurchase({ ...base, allowance: ether(29n) })).toEqual({ ok: true, total: ether(30n), needsApproval: true });
    expect(checkPurchase({ ...base, allowance: ether(30n) })).toEqual({ ok: true, total: ether(30n), needsApproval: false });
  });

  it("never asks for an allowance in BNB", () => {
    expect(checkPurchase({ currency: "BNB", unitPrice: 10n ** 17n, quantity: 1, balance: 10n ** 17n, allowance: 0n })).toEqual({
      ok: true,
      total: 10n ** 17n,
      needsApproval: false,
    });
  });

  it("is exact in wei for any amounts", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.integer({ min: 1, max: 10 }),
        fc.bigInt({ min: 0n, max: 10n ** 31n }),
        (price, quantity, balance) => {
          const result = checkPurchase({ currency: "QUARK", unitPrice: price, quantity, balance, allowance: 0n });
          expect(result.ok).toBe(balance >= price * BigInt(quantity));
        },
      ),
    );
  });
});

describe("purchaseLimits", () => {
  const sale = { globalLimit: 5_000n, sold: 10n, limitPerAddress: 2n };

  it("caps a purchase at 10, the supply left and the daily allowance", () => {
    expect(purchaseLimits({ ...sale, limitPerAddress: 0n, window: null }).maxQuantity).toBe(10);
    expect(purchaseLimits({ globalLimit: 13n, sold: 10n, limitPerAddress: 0n, window: null }).maxQuantity).toBe(3);
    expect(purchaseLimits({ ...sale, window: { bought: 0n, resetsAt: 0n } })).toEqual({
      globalRemaining: 4_990n,
      remainingToday: 2,
      resetsAt: null,
      maxQuantity: 2,
      opening: { open: true },
    });
    expect(purchaseLimits({ ...sale, window: { bought: 1n, resetsAt: 1_700_000_000n } })).toMatchObject({
      remainingToday: 1,
      maxQuantity: 1,
    });
  });

  it("reports the limit as reached, with its reset time", () => {
    const limits = purchaseLimits({ ...sale, window: { bought: 2n, resetsAt: 1_700_000_000n } });
    expect(limits).toMatchObject({ remainingToday: 0, maxQuantity: 0, resetsAt: 1_700_000_000n });
    expect(purchaseBlockedNote(limits)).toBe("You have reached the 24-hour limit; you can buy again after 2023-11-14 22:13 UTC.");
  });

  it("knows no daily allowance without a wallet or for unlimited types", () => {
    expect(purchaseLimits({ ...sale, window: null }).remainingToday).toBeNull();
    expect(purchaseLimits({ ...sale, limitPerAddress: 0n, window: { bought: 5n, resetsAt: 1n } }).remainingToday).toBeNull();
  });

  it("says sold out when nothing is left", () => {
    const limits = purchaseLimits({ globalLimit: 10n, sold: 10n, limitPerAddress: 0n, window: null });
    expect(limits.maxQuantity).toBe(0);
    expect(purchaseBlockedNote(limits)).toBe("Sold out.");
    expect(purchaseBlockedNote(purchaseLimits({ ...sale, window: null }))).toBeNull();
  });
});

describe("opening", () => {
  it("splits any number of boxes into opener calls of 1 to 10, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 10n ** 6n }), { maxLength: 45 }), (ids) => {
        const batches = openBatches(ids);
        expect(batches.flat()).toEqual(ids);
        for (const batch of batches) expect(batch.length >= 1 && batch.length <= 10).toBe(true);
        expect(batches.length).toBe(Math.ceil(ids.length / 10));
      }),
    );
  });

  it("keeps 'open x N' within 1-10 and the boxes owned", () => {
    expect(clampOpenCount(3, 5)).toBe(3);
    expect(clampOpenCount(0, 5)).toBe(1);
    expect(clampOpenCount(12, 20)).toBe(10);
    expect(clampOpenCount(8, 4)).toBe(4);
    expect(clampOpenCount(Number.NaN, 4)).toBe(1);
    expect(clampOpenCount(3, 0)).toBe(0);
  });
});

describe("money and time formatting", () => {
  it("shows box prices and balances as the market does: grouped, every significant decimal kept", () => {
    expect(formatPrice(ether(10_000n), "USDT")).toBe("10,000 USDT");
    expect(formatPrice(10n ** 17n, "BNB")).toBe("0.1 BNB");
    expect(formatPrice(3n * 10n ** 16n, "BNB")).toBe("0.03 BNB");
    expect(formatPrice(ether(9_999n) + 987_654_321_000_000_000n, "QUARK")).toBe("9,999.987654321 QUARK");
    expect(formatPrice(1n, "USDT")).toBe("0.000000000000000001 USDT");
    expect(formatPrice(ether(100n), "QUARK")).toBe("100 QUARK");
  });

  it("prints chain time in UTC", () => {
    expect(formatChainTime(0n)).toBe("1970-01-01 00:00 UTC");
  });
});

describe("describeItem", () => {
  it("names a hero card's attributes with product §3's enumerations", () => {
    const card = decodeItemData(encodeItem.card({ rarity: 3, camp: 1, identity: 0, profession: 2, level: 4 }));
    expect(describeItem(card)).toEqual({
      kind: "Hero card",
      traits: [
        ["Rarity", "Legend"],
        ["Level", "4"],
        ["Camp", "Empire of Amda"],
        ["Identity", "Leader"],
        ["Profession", "Bounty Hunter"],
      ],
    });
  });

  it("lists a spaceship's seven stats and their total", () => {
    const ship = decodeItemData(encodeItem.spaceship({ shipType: 4, level: 3, stats: [1, 2, 3, 4, 5, 6, 7] }));
    const { kind, traits } = describeItem(ship);
    expect(kind).toBe("Spaceship");
    expect(traits).toContainEqual(["Type", "Legend"]);
    expect(traits).toContainEqual(["Armor", "7"]);
    expect(traits.at(-1)).toEqual(["Total", "28"]);
  });

  it("names equipment by its code, and materials and eggs by their kind", () => {
    expect(describeItem(decodeItemData(encodeItem.equipment({ equipmentType: 2, equipmentCode: 16, level: 1 })))).toEqual({
      kind: "Plasma Sword",
      traits: [
        ["Equipment", "Rare"],
        ["Level", "1"],
      ],
    });
    expect(describeItem(decodeItemData(encodeItem.material(2)))).toEqual({ kind: "Material", traits: [["Material", "Gold"]] });
    expect(describeItem(decodeItemData(encodeItem.egg(3)))).toEqual({ kind: "Pet egg", traits: [["Egg", "Eternal Protoss"]] });
  });
});
