import { describe, expect, it } from "vitest";
import {
  ACCOUNT_BUDGET_SPENT,
  actionBudgetSpent,
  budgetRefusal,
  chooseFeeToken,
  DEFAULT_GAS_TANK_POLICY,
  feeWei,
  SITE_BUDGET_SPENT,
  topUpWei,
} from "../../backend/sso/executor/gas-tank";
import { createPriceSource, parseRates } from "../../backend/sso/executor/gas-prices";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;

describe("the gas tank's rules (decision 0038)", () => {
  it("charges the fee rounded up, never less than the gas is worth", () => {
    expect(feeWei(WEI, 600n * WEI)).toBe(600n * WEI);
    expect(feeWei(1n, 600n * WEI)).toBe(600n);
    expect(feeWei(1n, 1n)).toBe(1n);
    expect(feeWei(0n, 600n * WEI)).toBe(0n);
  });

  it("sends the gas of every step the wallet signs, the fee's transfer and the refund included, with headroom", () => {
    expect(topUpWei([100_000n, 250_000n], 1_000_000_000n, 150n)).toBe(((350_000n + 100_000n + 21_000n) * 1_000_000_000n * 150n) / 100n);
  });

  it("takes the fee in the token the action spends when the wallet holds enough for both, else in another it holds", () => {
    const balances = { FIRE: 150n, QUARK: 0n, USDT: 10n };
    const fee = () => 5n;
    expect(chooseFeeToken("FIRE", balances, { FIRE: 100n }, fee)).toBe("FIRE");
    expect(chooseFeeToken("FIRE", balances, { FIRE: 148n }, fee)).toBe("USDT");
    expect(chooseFeeToken(null, { FIRE: 0n, QUARK: 7n, USDT: 0n }, {}, fee)).toBe("QUARK");
    expect(chooseFeeToken(null, { FIRE: 4n, QUARK: 4n, USDT: 4n }, {}, fee)).toBeNull();
  });

  it("refuses past the action kind's count, the account's gas and the site's gas of the day, in that order", () => {
    const policy = { ...DEFAULT_GAS_TANK_POLICY, actionDayCount: 2, accountDayWei: 100n, siteDayWei: 1_000n };
    expect(budgetRefusal({ actionCount: 1, accountWei: 50n, siteWei: 500n }, 50n, policy)).toBeNull();
    expect(budgetRefusal({ actionCount: 2, accountWei: 0n, siteWei: 0n }, 1n, policy)).toBe(actionBudgetSpent(2));
    expect(budgetRefusal({ actionCount: 0, accountWei: 60n, siteWei: 0n }, 50n, policy)).toBe(ACCOUNT_BUDGET_SPENT);
    expect(budgetRefusal({ actionCount: 0, accountWei: 0n, siteWei: 990n }, 50n, policy)).toBe(SITE_BUDGET_SPENT);
  });

  it("reads rates as whole tokens a BNB, and refuses a missing or zero one", async () => {
    expect(parseRates({ FIRE: "12000", QUARK: "0.5", USDT: 600 })).toEqual({ FIRE: 12_000n * WEI, QUARK: WEI / 2n, USDT: 600n * WEI });
    expect(() => parseRates({ FIRE: "12000", QUARK: "0", USDT: "600" })).toThrow(/QUARK must be a positive number/);
    expect(() => parseRates({ FIRE: "12000", USDT: "600" })).toThrow(/QUARK/);
    let reads = 0;
    const source = createPriceSource({ url: "https://rates.example/bnb", maxAgeMs: 60_000 }, (async () => {
      reads++;
      return new Response(JSON.stringify({ FIRE: "10000", QUARK: "1000", USDT: "500" }));
    }) as typeof fetch);
    expect(await source.tokenWeiPerBnb("USDT")).toBe(500n * WEI);
    expect(await source.tokenWeiPerBnb("FIRE")).toBe(10_000n * WEI);
    expect(reads).toBe(1);
  });
});
