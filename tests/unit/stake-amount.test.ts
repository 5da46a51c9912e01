import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkStakeAmount, type StakeAmountInput } from "~/domain/stake-amount";
import { formatWei } from "~core/money";

const WEI = 10n ** 18n;
const open: StakeAmountInput = { text: "", balance: 1_000n * WEI, stake: 0n, threshold: 500n * WEI, canDeposit: true };
const check = (input: Partial<StakeAmountInput>) => checkStakeAmount({ ...open, ...input });

describe("checkStakeAmount", () => {
  it("takes a decimal FIRE amount within the balance that reaches the threshold, as exact wei", () => {
    expect(check({ text: "500" })).toEqual({ ok: true, amount: 500n * WEI });
    expect(check({ text: " 999.999999999999999999 " })).toEqual({ ok: true, amount: 1_000n * WEI - 1n });
    expect(check({ text: "1000" })).toEqual({ ok: true, amount: 1_000n * WEI });
    // A stake already at the threshold takes any positive top-up.
    expect(check({ text: ".5", stake: 500n * WEI })).toEqual({ ok: true, amount: WEI / 2n });
    expect(check({ text: "1", threshold: 0n })).toEqual({ ok: true, amount: WEI });
  });

  it("refuses what is not a FIRE amount", () => {
    for (const text of ["", " ", "abc", "1,5", "-1", "1e3", "0x10", "1.0000000000000000001", "+5"]) {
      expect(check({ text })).toEqual({ ok: false, message: "Enter an amount of FIRE as a number, like 100 or 12.5." });
    }
    expect(check({ text: "0" })).toEqual({ ok: false, message: "Enter an amount of FIRE above zero." });
    expect(check({ text: "0.000" })).toMatchObject({ ok: false, message: "Enter an amount of FIRE above zero." });
  });

  it("refuses more than the balance, one wei over included", () => {
    expect(check({ text: "1000.000000000000000001" })).toEqual({ ok: false, message: "You have 1,000 FIRE: enter at most that." });
    expect(check({ text: "600", balance: 0n })).toEqual({ ok: false, message: "You have 0 FIRE: enter at most that." });
  });

  it("refuses a stake that stays below the threshold, saying how much is missing", () => {
    expect(check({ text: "499.99" })).toEqual({ ok: false, message: "Stake at least the pool's threshold of 500 FIRE." });
    expect(check({ text: "100", stake: 300n * WEI })).toEqual({
      ok: false,
      message: "Your stake must reach the pool's threshold of 500 FIRE: add at least 200 FIRE.",
    });
    expect(check({ text: "200", stake: 300n * WEI })).toEqual({ ok: true, amount: 200n * WEI });
  });

  it("refuses any amount while the pool takes no deposits", () => {
    expect(check({ text: "500", canDeposit: false })).toEqual({ ok: false, message: "This pool takes no deposits now." });
  });

  it("accepts exactly the amounts within the balance whose stake reaches the threshold", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.bigInt({ min: 0n, max: 10n ** 24n }), (wei, stake) => {
        const result = check({ text: formatWei(wei), stake });
        const expected = wei > 0n && wei <= open.balance && stake + wei >= open.threshold;
        expect(result.ok).toBe(expected);
        if (result.ok) expect(result.amount).toBe(wei);
      }),
    );
  });
});
