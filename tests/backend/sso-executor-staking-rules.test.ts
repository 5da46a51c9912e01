/**
 * The executor's staking rules without a chain (issue 13): the deposit and withdrawal pre-checks, the guard's
 * rows for FIRE approvals and the staking contract, and the migration that lets steps of the new kinds be stored.
 * The flows on a real chain are in sso-executor-staking.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type Address, encodeFunctionData, type Hex } from "viem";
import { fireStakingAbi, gameTokenAbi } from "../../contracts/generated/abi";
import { guardTransaction, type TxRequest } from "../../backend/sso/executor/allowlist";
import { DEFAULT_EXECUTOR_POLICY, isApprovalStep } from "../../backend/sso/executor/policy";
import { checkDeposit, checkWithdraw, type DepositState } from "../../backend/sso/executor/staking";
import { Refusal } from "../../backend/sso/executor/plan";
import { revertMessage } from "~core/chain-errors";
import { STAKE_POOLS } from "~core/pools";
import { at, checkStepKindsMigration, contracts, guardContext, migrateBefore } from "./sso-rules-fixture";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const STANDARD_POOL = STAKE_POOLS[0];

describe("checkDeposit and checkWithdraw", () => {
  const state: DepositState = { status: "open", threshold: 100n * WEI, balance: 1_000n * WEI, stake: 0n, allowance: 0n };
  const why = (s: Partial<DepositState>, amount = 100n * WEI) => {
    try {
      return checkDeposit(STANDARD_POOL, amount, { ...state, ...s }, DEFAULT_EXECUTOR_POLICY);
    } catch (error) {
      expect(error).toBeInstanceOf(Refusal);
      return (error as Error).message;
    }
  };

  it("approves only when the allowance is short of the amount, and only the approval shows as approving", () => {
    expect(why({})).toEqual({ needsApproval: true });
    expect([isApprovalStep("approve-stake"), isApprovalStep("deposit"), isApprovalStep("withdraw")]).toEqual([true, false, false]);
    expect(why({ allowance: 100n * WEI - 1n })).toEqual({ needsApproval: true });
    expect(why({ allowance: 100n * WEI })).toEqual({ needsApproval: false });
  });

  it("refuses by the pool's status, then the cap, the amount, the balance and the threshold", () => {
    expect(why({ status: "upcoming" })).toBe("Staking in the Standard Pool has not opened yet, so it takes no deposits.");
    expect(why({ status: "locked" })).toMatch(/^Staking in the Standard Pool has ended: .* locked in the vault\.$/);
    expect(why({ status: "claimable" })).toBe("Staking in the Standard Pool has ended: it takes no more deposits.");
    expect(why({}, 0n)).toBe("Enter an amount of FIRE above zero.");
    expect(why({ balance: 10n ** 30n }, 100_000n * WEI + 1n)).toMatch(/^One action may stake at most 100,000 FIRE/);
    expect(why({ balance: 100n * WEI - 1n })).toMatch(/^Your wallet holds 99\.9+ FIRE: enter at most that\.$/);
    expect(why({ balance: 100n * WEI })).toEqual({ needsApproval: true });
    expect(why({}, 100n * WEI - 1n)).toBe("Stake at least the pool's threshold of 100 FIRE.");
    expect(why({ stake: 60n * WEI }, 40n * WEI)).toEqual({ needsApproval: true });
    expect(why({ stake: 60n * WEI }, 39n * WEI)).toBe("Your stake must reach the pool's threshold of 100 FIRE: add at least 40 FIRE.");
  });

  it("names a pool outside the catalogue by its id", () => {
    expect(revertMessage("UnknownPool", [9n])).toBe("There is no pool 9.");
    expect(revertMessage("NothingStaked", [3n])).toBe("You have nothing staked in the Legendary Pool.");
  });

  it("refuses a withdrawal with nothing staked before one inside the vault, then lets it through at the vault's end", () => {
    const attempt = (now: bigint, staked: bigint) => {
      try {
        checkWithdraw(STANDARD_POOL, { now, endVaultTime: 1_700_000_000n, staked });
        return "ok";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(attempt(1_600_000_000n, 0n)).toBe("You have nothing staked in the Standard Pool.");
    expect(attempt(1_699_999_999n, 1n)).toBe(
      "Your stake in the Standard Pool is locked in the vault until 2023-11-14 22:13 UTC. You can withdraw and claim after that.",
    );
    expect(attempt(1_700_000_000n, 1n)).toBe("ok");
  });
});

describe("the guard's staking rows", () => {
  const ctx = guardContext();
  const cap = DEFAULT_EXECUTOR_POLICY.valueCaps.FIRE;
  const tx = (to: Address, data: Hex, value = 0n): TxRequest => ({ to, data, value });
  const approve = (spender: Address, amount: bigint) =>
    encodeFunctionData({ abi: gameTokenAbi, functionName: "approve", args: [spender, amount] });
  const stake = (poolId: bigint, amount: bigint) =>
    encodeFunctionData({ abi: fireStakingAbi, functionName: "deposit", args: [poolId, amount] });
  const claim = (poolId: bigint) => encodeFunctionData({ abi: fireStakingAbi, functionName: "withdrawAndClaim", args: [poolId] });
  const verdict = (request: TxRequest) =>
    guardTransaction(request, ctx).then(
      (call) => `${call.contract}.${call.functionName}`,
      (error: Error) => error.message,
    );

  it("lets through the staking planners' calls", async () => {
    expect(await verdict(tx(contracts.fire, approve(contracts.staking, 100n * WEI)))).toBe("fire.approve");
    expect(await verdict(tx(contracts.fire, approve(contracts.staking, cap)))).toBe("fire.approve");
    expect(await verdict(tx(contracts.staking, stake(1n, 100n * WEI)))).toBe("staking.deposit");
    expect(await verdict(tx(contracts.staking, claim(3n)))).toBe("staking.withdrawAndClaim");
  });

  it("refuses FIRE approvals of any spender but the staking contract, and of more than the cap", async () => {
    for (const spender of [at(0xbad), contracts.boxSale, contracts.opener, contracts.fire]) {
      expect(await verdict(tx(contracts.fire, approve(spender, 1n)))).toMatch(/^fire\.approve: spender 0x[0-9a-fA-F]{40} is not allowed$/);
    }
    expect(await verdict(tx(contracts.fire, approve(contracts.staking, cap + 1n)))).toBe(
      "fire.approve: amount is outside the per-action cap",
    );
    expect(await verdict(tx(contracts.fire, approve(contracts.staking, 0n)))).toBe("fire.approve: amount is outside the per-action cap");
    // The staking contract is no spender of the sale's currencies.
    expect(await verdict(tx(contracts.usdt, approve(contracts.staking, 1n)))).toMatch(/^usdt\.approve: spender .* is not allowed$/);
  });

  it("refuses BNB on every staking call, pools outside the catalogue, and amounts outside the cap", async () => {
    expect(await verdict(tx(contracts.fire, approve(contracts.staking, 1n), 1n))).toBe("fire.approve: may not carry BNB");
    expect(await verdict(tx(contracts.staking, stake(1n, 1n), 1n))).toBe("staking.deposit: may not carry BNB");
    expect(await verdict(tx(contracts.staking, claim(1n), 1n))).toBe("staking.withdrawAndClaim: may not carry BNB");
    expect(await verdict(tx(contracts.staking, stake(9n, 1n)))).toBe("staking.deposit: not a pool of the catalogue");
    expect(await verdict(tx(contracts.staking, claim(0n)))).toBe("staking.withdrawAndClaim: not a pool of the catalogue");
    expect(await verdict(tx(contracts.staking, stake(1n, 0n)))).toBe("staking.deposit: amount is outside the per-action cap");
    expect(await verdict(tx(contracts.staking, stake(1n, cap + 1n)))).toBe("staking.deposit: amount is outside the per-action cap");
  });

  it("refuses every other function of FIRE and of the staking contract", async () => {
    const transfer = encodeFunctionData({ abi: gameTokenAbi, functionName: "transfer", args: [at(0xbad), 1n] });
    expect(await verdict(tx(contracts.fire, transfer))).toBe(
      "fire.transfer: a token may be transferred only to the gas tank's fee receiver",
    );
    const pull = encodeFunctionData({ abi: gameTokenAbi, functionName: "transferFrom", args: [at(0xbad), at(0xbad), 1n] });
    expect(await verdict(tx(contracts.fire, pull))).toBe("fire.transferFrom is not on the allowlist");
    const create = encodeFunctionData({
      abi: fireStakingAbi,
      functionName: "createPool",
      args: [9n, contracts.fire, 1n, 2n, 3n, 1n, 4n, 1n],
    });
    expect(await verdict(tx(contracts.staking, create))).toBe("staking.createPool is not on the allowlist");
    const own = encodeFunctionData({ abi: fireStakingAbi, functionName: "transferOwnership", args: [at(0xbad)] });
    expect(await verdict(tx(contracts.staking, own))).toBe("staking.transferOwnership is not on the allowlist");
    expect(await verdict(tx(contracts.staking, `${claim(1n)}00`))).toMatch(/is not canonical/);
    expect(await verdict(tx(contracts.staking, "0xdeadbeef"))).toBe("the calldata is no function of staking");
  });
});

describe("the migration to the staking step kinds", () => {
  it("keeps the stored steps, takes the new kinds and still refuses unknown ones", async () => {
    await checkStepKindsMigration(
      "sso_006_staking_step_kinds",
      "sso_007",
      "lootbox.open",
      { stored: "open", added: "deposit" },
      async ({ sqlite, kysely, step }) => {
        for (const [position, kind] of [
          [1, "approve-stake"],
          [2, "deposit"],
          [3, "withdraw"],
        ] as const)
          step(position, kind);
        expect(() => step(4, "transfer")).toThrow(/CHECK constraint failed/);
        expect(() => step(4, "claim")).toThrow(/CHECK constraint failed/);
        // The bridge's kinds (issue 14) come with the next migration, the stored steps kept.
        expect(await migrateBefore(kysely, "sso_008")).toEqual(["sso_007_bridge_step_kinds"]);
        for (const [position, kind] of [
          [4, "claim"],
          [5, "approve-swap"],
          [6, "swap"],
        ] as const)
          step(position, kind);
        expect(sqlite.prepare("select count(*) as n from action_steps").get()).toEqual({ n: 7 });
        expect(() => step(7, "transfer")).toThrow(/CHECK constraint failed/);
      },
    );
  });
});
