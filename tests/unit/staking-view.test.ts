/** features/staking/staking-view.ts: the loyalty pages' words and figures, and core/chain-text.ts's countdown durations. */
import { describe, expect, it } from "vitest";
import { boxCount, historyRows, poolView, rewardPreview, stakeView } from "~/features/staking/staking-view";
import { formatDuration } from "~core/chain-text";
import { STAKE_POOLS } from "~core/pools";
import type { PoolState } from "~core/staking";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const STANDARD = STAKE_POOLS[0];
const state: PoolState = {
  poolId: 1,
  status: "open",
  stakers: 1_234n,
  totalStaked: 123_456n * WEI + WEI / 2n,
  beginVaultTime: 1_800_000_000n,
  endStakingTime: 1_800_086_400n,
  endVaultTime: 1_800_172_800n,
  takerThreshold: 100n * WEI,
  rewardNftType: 4,
  rewardNftMaxSupply: 1_000n,
  rewardNftAllocNumber: 998n,
  claimedNftNumber: 12n,
};

describe("poolView", () => {
  it("writes every figure, date and the next change for the page", () => {
    expect(poolView(STANDARD, state, 1_800_000_061n)).toMatchObject({
      status: "open",
      statusLabel: "Open for staking",
      stakers: "1,234",
      totalStaked: { text: "123,456.5 FIRE", exact: "123,456.5 FIRE" },
      threshold: "100 FIRE",
      boxes: { maxSupply: "1,000", allocated: "998", claimed: "12", left: "2" },
      dates: { stakingOpens: "2027-01-15 08:00 UTC", stakingEnds: "2027-01-16 08:00 UTC", vaultEnds: "2027-01-17 08:00 UTC" },
      next: { label: "Staking ends", at: "1800086400", left: "23 h 58 m 59 s" },
      formula: "Every full 100 FIRE of your stake earns one Standard loot box, up to 10 per address, while the pool has boxes left.",
    });
  });

  it("has no next change once claimable, and never a negative number of boxes left", () => {
    const ended = poolView(STANDARD, { ...state, status: "claimable", rewardNftAllocNumber: 1_001n }, 1_900_000_000n);
    expect(ended.next).toBeNull();
    expect(ended.statusLabel).toBe("Ended: withdraw and claim");
    expect(ended.boxes.left).toBe("0");
  });
});

describe("stakeView and boxCount", () => {
  it("says a stake and its boxes, one or many", () => {
    expect(stakeView(STANDARD, { poolId: 1, staked: 250n * WEI, rewardBoxes: 2n })).toEqual({
      staked: "250 FIRE",
      stakedWei: (250n * WEI).toString(),
      rewardBoxes: 2,
      rewards: "2 Standard loot boxes",
    });
    expect([0, 1, 2].map((n) => boxCount(n, "Epic loot box"))).toEqual(["0 Epic loot boxes", "1 Epic loot box", "2 Epic loot boxes"]);
  });
});

describe("rewardPreview", () => {
  const roomy = { ...state, rewardNftAllocNumber: 0n };
  const preview = (text: string, stake: bigint | null = null, pool = roomy) =>
    rewardPreview(text, STANDARD, pool, stake === null ? null : { poolId: 1, staked: stake, rewardBoxes: stake / (100n * WEI) });

  it("says what a stake would earn, with and without a stake already", () => {
    expect(preview("250")).toEqual({ ok: true, amount: "250", text: "A stake of 250 FIRE earns 2 Standard loot boxes." });
    expect(preview("50").ok && preview("50")).toMatchObject({
      text: "A stake of 50 FIRE is below the threshold of 100 FIRE: it earns 0 Standard loot boxes.",
    });
    expect(preview("60", 150n * WEI)).toMatchObject({
      text: "Adding 60 FIRE makes your stake 210 FIRE, which earns 2 Standard loot boxes.",
    });
    expect(preview("5000")).toMatchObject({ text: "A stake of 5,000 FIRE earns 10 Standard loot boxes (10 is the most per address)." });
  });

  it("gives only what the pool has left", () => {
    expect(preview("500", null, state)).toMatchObject({ text: "A stake of 500 FIRE earns 2 Standard loot boxes." });
  });

  it("refuses what is no amount, echoing it trimmed and cut short", () => {
    for (const text of ["ten", "", "0", "-1", "1e3"]) {
      expect(preview(text)).toEqual({ ok: false, amount: text, message: "Enter an amount of FIRE as a number, like 100 or 12.5." });
    }
    expect(preview(`  ${"9".repeat(60)}  `).amount).toBe("9".repeat(40));
  });
});

describe("historyRows", () => {
  it("lists the newest first, in words", () => {
    const rows = historyRows(
      [
        { kind: "deposit", txHash: "0xa", time: 1_800_000_000n, amount: 100n * WEI, stakeAfter: 100n * WEI, rewardBoxesAfter: 1n },
        { kind: "withdrawal", txHash: "0xb", time: 1_800_200_000n, amount: 100n * WEI, rewardBoxIds: [7n] },
        { kind: "withdrawal", txHash: "0xc", time: 1_800_300_000n, amount: 5n * WEI, rewardBoxIds: [] },
      ],
      STANDARD,
    );
    expect(rows.map(({ date, what, amount, detail }) => [date, what, amount, detail])).toEqual([
      ["2027-01-18 19:20 UTC", "Withdrawal", "5 FIRE", "No reward box"],
      ["2027-01-17 15:33 UTC", "Withdrawal", "100 FIRE", "Claimed 1 Standard loot box: #7"],
      ["2027-01-15 08:00 UTC", "Deposit", "100 FIRE", "Stake 100 FIRE, earning 1 Standard loot box"],
    ]);
  });
});

describe("formatDuration", () => {
  it("counts down in days, hours, minutes and seconds, from the largest unit present", () => {
    expect([-5, 0, 59, 61, 3_661, 86_400, 90_061].map((s) => formatDuration(s))).toEqual([
      "0 s",
      "0 s",
      "59 s",
      "1 m 1 s",
      "1 h 1 m 1 s",
      "1 d 0 h 0 m 0 s",
      "1 d 1 h 1 m 1 s",
    ]);
    expect(formatDuration(1_209_600n)).toBe("14 d 0 h 0 m 0 s");
  });
});
