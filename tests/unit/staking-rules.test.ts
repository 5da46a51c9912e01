/**
 * core/staking.ts: the pool status by the chain's clock (FireStaking's _status), the reward formula (its
 * deposit()), and the deposit amount rule the pool page, the island and the executor share. The contract's side
 * is in tests/contracts/staking.test.ts, which also checks this formula against the chain.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatWei, WEI_PER_TOKEN } from "~core/money";
import {
  boxesByStake,
  canDeposit,
  canWithdraw,
  checkStakeAmount,
  type DepositFacts,
  MAX_REWARD_PER_ADDRESS,
  nextChange,
  POOL_STATUSES,
  poolStatus,
  rewardBoxesAfter,
  rewardFormulaText,
  statusCode,
} from "~core/staking";

const WEI = WEI_PER_TOKEN;
const times = { beginVaultTime: 1_000n, endStakingTime: 2_000n, endVaultTime: 3_000n };

describe("poolStatus", () => {
  it("is upcoming, open, locked, then claimable, each from the second its time is reached", () => {
    expect([999n, 1_000n, 1_999n, 2_000n, 2_999n, 3_000n, 10n ** 12n].map((now) => poolStatus(times, now))).toEqual([
      "upcoming",
      "open",
      "open",
      "locked",
      "locked",
      "claimable",
      "claimable",
    ]);
  });

  it("has the contract's codes (0 upcoming … 3 ended), and a pool whose staking ends with the vault is never locked", () => {
    expect(POOL_STATUSES.map(statusCode)).toEqual([0, 1, 2, 3]);
    const short = { ...times, endVaultTime: 2_000n };
    expect([1_999n, 2_000n].map((now) => poolStatus(short, now))).toEqual(["open", "claimable"]);
  });

  it("lets deposits in only while open, and withdrawals only once claimable with a stake", () => {
    expect(POOL_STATUSES.filter(canDeposit)).toEqual(["open"]);
    expect(POOL_STATUSES.filter((s) => canWithdraw(s, 1n))).toEqual(["claimable"]);
    expect(canWithdraw("claimable", 0n)).toBe(false);
  });

  it("names the next change of status, and none once claimable", () => {
    expect(nextChange(times, 0n)).toEqual({ at: 1_000n, label: "Staking opens" });
    expect(nextChange(times, 1_500n)).toEqual({ at: 2_000n, label: "Staking ends" });
    expect(nextChange(times, 2_000n)).toEqual({ at: 3_000n, label: "The vault opens" });
    expect(nextChange(times, 3_000n)).toBeNull();
  });

  it("is monotonic in time: a pool never goes back to an earlier status", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 5_000n }), fc.bigInt({ min: 0n, max: 5_000n }), (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        expect(statusCode(poolStatus(times, early))).toBeLessThanOrEqual(statusCode(poolStatus(times, late)));
      }),
    );
  });
});

describe("the reward formula", () => {
  const terms = { takerThreshold: 100n * WEI, rewardNftMaxSupply: 1_000n, rewardNftAllocNumber: 0n };

  it("earns one box per full threshold, capped per address", () => {
    expect([0n, 99n, 100n, 199n, 200n, 1_000n, 1_100n, 10n ** 9n].map((fire) => boxesByStake(fire * WEI, terms.takerThreshold))).toEqual([
      0n,
      0n,
      1n,
      1n,
      2n,
      10n,
      10n,
      10n,
    ]);
    expect(MAX_REWARD_PER_ADDRESS).toBe(10n);
    expect(boxesByStake(5n, 0n)).toBe(0n);
  });

  it("never takes boxes back, and gives only what the pool has left", () => {
    expect(rewardBoxesAfter(250n * WEI, 0n, terms)).toBe(2n);
    expect(rewardBoxesAfter(250n * WEI, 3n, terms)).toBe(3n);
    expect(rewardBoxesAfter(500n * WEI, 2n, { ...terms, rewardNftAllocNumber: 999n })).toBe(3n);
    expect(rewardBoxesAfter(500n * WEI, 2n, { ...terms, rewardNftAllocNumber: 1_000n })).toBe(2n);
  });

  it("is said in words with the pool's figures", () => {
    expect(rewardFormulaText(terms, "Standard loot box")).toBe(
      "Every full 100 FIRE of your stake earns one Standard loot box, up to 10 per address, while the pool has boxes left.",
    );
  });

  it("matches a step-by-step model of deposit() over random deposit sequences", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 3_000n * WEI }), { minLength: 1, maxLength: 8 }),
        fc.bigInt({ min: 0n, max: 20n }),
        (deposits, supply) => {
          let stake = 0n;
          let held = 0n;
          let allocated = 0n;
          for (const amount of deposits) {
            stake += amount;
            const after = rewardBoxesAfter(stake, held, { ...terms, rewardNftMaxSupply: supply, rewardNftAllocNumber: allocated });
            allocated += after - held;
            held = after;
          }
          expect(held).toBe(boxesByStake(stake, terms.takerThreshold) < supply ? boxesByStake(stake, terms.takerThreshold) : supply);
        },
      ),
    );
  });
});

describe("checkStakeAmount", () => {
  const open: DepositFacts = { poolId: 1, status: "open", balance: 1_000n * WEI, stake: 0n, threshold: 500n * WEI };
  const check = (text: string, facts: Partial<DepositFacts> = {}) => checkStakeAmount(text, { ...open, ...facts });

  it("takes a decimal FIRE amount within the balance that reaches the threshold, as exact wei", () => {
    expect(check("500")).toEqual({ ok: true, amount: 500n * WEI });
    expect(check(" 999.999999999999999999 ")).toEqual({ ok: true, amount: 1_000n * WEI - 1n });
    expect(check("1000")).toEqual({ ok: true, amount: 1_000n * WEI });
    // A stake already at the threshold takes any positive top-up.
    expect(check(".5", { stake: 500n * WEI })).toEqual({ ok: true, amount: WEI / 2n });
  });

  it("refuses what is not a FIRE amount", () => {
    for (const text of ["", " ", "abc", "1,5", "-1", "1e3", "0x10", "1.0000000000000000001", "+5"]) {
      expect(check(text)).toEqual({ ok: false, message: "Enter an amount of FIRE as a number, like 100 or 12.5." });
    }
    expect(check("0")).toEqual({ ok: false, message: "Enter an amount of FIRE above zero." });
    expect(check("0.000")).toEqual({ ok: false, message: "Enter an amount of FIRE above zero." });
  });

  it("refuses more than the balance, one wei over included", () => {
    expect(check("1000.000000000000000001")).toEqual({ ok: false, message: "Your wallet holds 1,000 FIRE: enter at most that." });
    expect(check("600", { balance: 0n })).toEqual({ ok: false, message: "Your wallet holds 0 FIRE: enter at most that." });
  });

  it("refuses a stake that stays below the threshold, saying how much is missing", () => {
    expect(check("499.99")).toEqual({ ok: false, message: "Stake at least the pool's threshold of 500 FIRE." });
    expect(check("100", { stake: 300n * WEI })).toEqual({
      ok: false,
      message: "Your stake must reach the pool's threshold of 500 FIRE: add at least 200 FIRE.",
    });
    expect(check("200", { stake: 300n * WEI })).toEqual({ ok: true, amount: 200n * WEI });
  });

  it("refuses any amount while the pool takes no deposits, in the contract's words for its status", () => {
    expect(check("500", { status: "upcoming" })).toEqual({
      ok: false,
      message: "Staking in the Standard Pool has not opened yet, so it takes no deposits.",
    });
    expect(check("abc", { status: "claimable", poolId: 2 })).toEqual({
      ok: false,
      message: "Staking in the Epic Pool has ended: it takes no more deposits.",
    });
  });

  it("accepts exactly the amounts within the balance whose stake reaches the threshold", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.bigInt({ min: 0n, max: 10n ** 24n }), (wei, stake) => {
        const result = check(formatWei(wei), { stake });
        const expected = wei > 0n && wei <= open.balance && stake + wei >= open.threshold;
        expect(result.ok).toBe(expected);
        if (result.ok) expect(result.amount).toBe(wei);
      }),
    );
  });
});
