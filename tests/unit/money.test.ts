/** core/money.ts's display rule (issue 23): prices exact, balances rounded down, costs rounded up, exact one step away. */
import { describe, expect, it } from "vitest";
import { formatAmount, formatPrice, roundForDisplay, shownAmount } from "~core/money";

const WEI = 10n ** 18n;
/** "27.922222222222222222" → wei, for readable cases. */
const wei = (text: string) => {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole) * WEI + BigInt(fraction.padEnd(18, "0"));
};

describe("prices people set", () => {
  it("show every decimal: the wallet signs exactly this", () => {
    expect(formatPrice(wei("1234.000000000000000001"), "FIRE")).toBe("1,234.000000000000000001 FIRE");
    expect(formatPrice(wei("0.009"), "BNB")).toBe("0.009 BNB");
  });
});

describe("balances and computed amounts", () => {
  it.each([
    ["9999.999535374990955754", "balance", "9,999.9995 BNB"],
    ["27.922222222222222222", "cost", "27.9223 BNB"],
    ["27.922222222222222222", "balance", "27.9222 BNB"],
    // Below one token, four significant decimals after the leading zeros.
    ["0.000012345678", "balance", "0.00001234 BNB"],
    ["0.000012345678", "cost", "0.00001235 BNB"],
    ["0.000000000000000001", "balance", "0.000000000000000001 BNB"],
    // A cost that rounds up across the point.
    ["9.99995", "cost", "10 BNB"],
    ["9.99995", "balance", "9.9999 BNB"],
    ["12.5", "cost", "12.5 BNB"],
    ["0", "balance", "0 BNB"],
  ] as const)("%s as a %s reads %s", (amount, kind, text) => {
    expect(formatAmount(wei(amount), "BNB", kind)).toBe(text);
  });

  it("never shows a cost below what the chain takes, nor a balance above what is there", () => {
    for (const amount of ["27.922222222222222222", "0.000012345678", "9999.999535374990955754", "1.00000000000000001", "3"]) {
      expect(roundForDisplay(wei(amount), "cost")).toBeGreaterThanOrEqual(wei(amount));
      expect(roundForDisplay(wei(amount), "balance")).toBeLessThanOrEqual(wei(amount));
    }
  });

  it("keeps the exact amount one step away", () => {
    expect(shownAmount(wei("9999.999535374990955754"), "BNB", "balance")).toEqual({
      text: "9,999.9995 BNB",
      exact: "9,999.999535374990955754 BNB",
    });
    expect(shownAmount("50000000000000000000", "FIRE", "balance")).toEqual({ text: "50 FIRE", exact: "50 FIRE" });
  });
});
