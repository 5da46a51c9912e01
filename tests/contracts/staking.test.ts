import { describe, expect, it } from "vitest";
import { parseEventLogs, type Account } from "viem";
import { blindBoxAbi, fireStakingAbi, gameTokenAbi, sparkErrorsAbi } from "../../contracts/generated/abi";
import { POOL_STAKING_DAYS, POOL_TERMS, POOL_VAULT_DAYS } from "../../contracts/deploy";
import { STAKE_POOLS } from "~core/pools";
import { MAX_REWARD_PER_ADDRESS, POOL_STATUSES, poolStatus, rewardBoxesAfter } from "~core/staking";
import { freshPlayer, revertOf, type TestChain, setUpTestChain } from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const DAY = 24 * 60 * 60;
const stakingAbi = [...fireStakingAbi, ...sparkErrorsAbi] as const;
const STATUS = { upcoming: 0, staking: 1, locked: 2, ended: 3 } as const;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

async function fundAndApprove(player: Account, amount: bigint) {
  await t.mined(t.deployer.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "mint", args: [player.address, amount] }));
  await t.mined(
    t.walletFor(player).writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.staking, amount] }),
  );
}

const deposit = (player: Account, poolId: bigint, amount: bigint) =>
  t.walletFor(player).writeContract({ address: c.staking, abi: stakingAbi, functionName: "deposit", args: [poolId, amount] });

const withdraw = (player: Account, poolId: bigint) =>
  t.walletFor(player).writeContract({ address: c.staking, abi: stakingAbi, functionName: "withdrawAndClaim", args: [poolId] });

const poolInfo = (poolId: bigint) =>
  t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "queryPoolInfo", args: [poolId] });

const userStake = (poolId: bigint, player: Account) =>
  t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "queryUserStake", args: [poolId, player.address] });

const fireOf = (player: Account) =>
  t.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [player.address] });

describe("FIRE staking pools", () => {
  it("seeds the three product pools, open for deposits", async () => {
    const ids = await t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "poolIds" });
    expect(ids).toEqual(STAKE_POOLS.map((p) => BigInt(p.id)));
    for (const catalogue of STAKE_POOLS) {
      const pool = await poolInfo(BigInt(catalogue.id));
      expect(pool).toMatchObject({
        poolId: BigInt(catalogue.id),
        status: STATUS.staking,
        stakingTokenAddr: c.fire,
        rewardNftType: BigInt(catalogue.rewardBoxType),
        takerThreshold: POOL_TERMS[catalogue.id]!.takerThreshold,
        rewardNftMaxSupply: POOL_TERMS[catalogue.id]!.rewardNftMaxSupply,
        stakingAddrNumber: 0n,
        totalStakingTokens: 0n,
      });
      expect(BigInt(pool.endStakingTime - pool.beginVaultTime)).toBe(POOL_STAKING_DAYS * BigInt(DAY));
      expect(BigInt(pool.endVaultTime - pool.beginVaultTime)).toBe(POOL_VAULT_DAYS * BigInt(DAY));
    }
    const now = await t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "getBlockchainTime" });
    expect(now).toBe((await t.publicClient.getBlock()).timestamp);
    expect(await revertOf(poolInfo(42n))).toEqual({ name: "UnknownPool", args: [42n] });
  });

  // Pool 1's threshold is 100 FIRE (contracts/deploy.ts): 140 FIRE earns one box, 240 two, 60 none.
  it("stakes, locks, then returns the stake with one reward box per threshold reached", async () => {
    const alice = freshPlayer(3);
    const bob = freshPlayer(4);
    await fundAndApprove(alice, 240n * WEI);
    await fundAndApprove(bob, 60n * WEI);

    expect(await revertOf(deposit(alice, 1n, 0n))).toEqual({ name: "ZeroAmount", args: [] });
    const first = await t.mined(deposit(alice, 1n, 140n * WEI));
    expect(parseEventLogs({ abi: fireStakingAbi, logs: first.logs, eventName: "Deposited" })[0]?.args).toEqual({
      poolId: 1n,
      user: alice.address,
      amount: 140n * WEI,
      stakingNumber: 140n * WEI,
      nftNumber: 1n,
    });
    await t.mined(deposit(alice, 1n, 100n * WEI));
    await t.mined(deposit(bob, 1n, 60n * WEI));
    expect(await userStake(1n, alice)).toEqual([240n * WEI, 2n]);
    expect(await userStake(1n, bob)).toEqual([60n * WEI, 0n]);
    expect(await poolInfo(1n)).toMatchObject({ stakingAddrNumber: 2n, totalStakingTokens: 300n * WEI, rewardNftAllocNumber: 2n });
    expect(await t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "getTotalPoolSupply" })).toBe(
      300n * WEI,
    );
    expect(await revertOf(withdraw(alice, 1n))).toMatchObject({ name: "VaultLocked" });

    await t.advanceTime(Number(POOL_STAKING_DAYS) * DAY);
    expect((await poolInfo(1n)).status).toBe(STATUS.locked);
    expect(await revertOf(deposit(bob, 1n, 1n))).toEqual({ name: "StakingNotOpen", args: [1n, STATUS.locked] });

    await t.advanceTime(Number(POOL_VAULT_DAYS - POOL_STAKING_DAYS) * DAY);
    expect((await poolInfo(1n)).status).toBe(STATUS.ended);
    const receipt = await t.mined(withdraw(alice, 1n));
    const forged = parseEventLogs({ abi: blindBoxAbi, logs: receipt.logs, eventName: "BlindBoxForged" });
    expect(forged.map((e) => [e.args.owner, e.args.boxType])).toEqual([
      [alice.address, 4n],
      [alice.address, 4n],
    ]);
    const [withdrawn] = parseEventLogs({ abi: fireStakingAbi, logs: receipt.logs, eventName: "Withdrawn" });
    expect(withdrawn?.args.rewardBoxIds).toEqual(forged.map((e) => e.args.boxId));
    expect(await fireOf(alice)).toBe(240n * WEI);
    expect(await userStake(1n, alice)).toEqual([0n, 0n]);
    expect(await revertOf(withdraw(alice, 1n))).toEqual({ name: "NothingStaked", args: [1n] });

    await t.mined(withdraw(bob, 1n));
    expect(await fireOf(bob)).toBe(60n * WEI);
    expect(await poolInfo(1n)).toMatchObject({ stakingAddrNumber: 0n, totalStakingTokens: 0n, claimedNftNumber: 2n });
  });

  it("caps rewards per address and per pool, and refuses deposits before a pool opens", async () => {
    const whale = freshPlayer(5);
    const late = freshPlayer(6);
    const now = (await t.publicClient.getBlock()).timestamp;
    const create = (poolId: bigint, begin: bigint, maxSupply: bigint) =>
      t.mined(
        t.deployer.writeContract({
          address: c.staking,
          abi: stakingAbi,
          functionName: "createPool",
          args: [poolId, c.fire, begin, begin + BigInt(DAY), begin + 2n * BigInt(DAY), 10n * WEI, 6n, maxSupply],
        }),
      );
    await create(7n, now, 12n);
    await create(8n, now + 3600n, 5n);
    await fundAndApprove(whale, 1_000n * WEI);
    await fundAndApprove(late, 100n * WEI);

    expect(await revertOf(deposit(whale, 8n, 10n * WEI))).toEqual({ name: "StakingNotOpen", args: [8n, STATUS.upcoming] });
    await t.mined(deposit(whale, 7n, 500n * WEI)); // 50 thresholds, capped at 10 per address
    expect(await userStake(7n, whale)).toEqual([500n * WEI, 10n]);
    await t.mined(deposit(late, 7n, 100n * WEI)); // 10 thresholds, 2 left in the pool
    expect(await userStake(7n, late)).toEqual([100n * WEI, 2n]);
    expect((await poolInfo(7n)).rewardNftAllocNumber).toBe(12n);
    expect((await revertOf(create(7n, now, 1n))).name).toBe("PoolExists");
  });
});

describe("core/staking.ts agrees with FireStaking", () => {
  it("has the contract's reward cap and status codes", async () => {
    const read = (functionName: "MAX_REWARD_PER_ADDRESS" | "STATUS_UPCOMING" | "STATUS_STAKING" | "STATUS_LOCKED" | "STATUS_ENDED") =>
      t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName });
    expect(await read("MAX_REWARD_PER_ADDRESS")).toBe(MAX_REWARD_PER_ADDRESS);
    expect(await Promise.all([read("STATUS_UPCOMING"), read("STATUS_STAKING"), read("STATUS_LOCKED"), read("STATUS_ENDED")])).toEqual(
      POOL_STATUSES.map((_, code) => code),
    );
  });

  it("allocates the boxes rewardBoxesAfter predicts, over a pseudo-random run of deposits that exhausts a small pool", async () => {
    // Threshold 10 FIRE and 15 boxes for four players: the per-address cap and the pool's supply are both reached.
    const players = [freshPlayer(3), freshPlayer(4), freshPlayer(5), freshPlayer(6)];
    const now = (await t.publicClient.getBlock()).timestamp;
    const poolId = 20n;
    await t.mined(
      t.deployer.writeContract({
        address: c.staking,
        abi: stakingAbi,
        functionName: "createPool",
        args: [poolId, c.fire, now, now + BigInt(DAY), now + 2n * BigInt(DAY), 10n * WEI, 4n, 15n],
      }),
    );
    for (const player of players) await fundAndApprove(player, 1_000n * WEI);
    // A fixed linear congruential sequence: the same run every time, amounts from 0.5 to 40 FIRE in half FIRE.
    let seed = 12_345n;
    const next = () => (seed = (seed * 1_103_515_245n + 12_345n) % 2n ** 31n) >> 16n;
    for (let round = 0; round < 30; round += 1) {
      // The first deposit is past ten thresholds: its player is capped at once.
      const player = round === 0 ? players[0] : players[Number(next() % 4n)];
      const amount = round === 0 ? 150n * WEI : ((next() % 80n) + 1n) * (WEI / 2n);
      const before = await poolInfo(poolId);
      const [stake, held] = await userStake(poolId, player);
      await t.mined(deposit(player, poolId, amount));
      const expected = rewardBoxesAfter(stake + amount, held, before);
      const [, boxes] = await userStake(poolId, player);
      expect(boxes, `round ${round}`).toBe(expected);
      expect((await poolInfo(poolId)).rewardNftAllocNumber - before.rewardNftAllocNumber).toBe(expected - held);
    }
    expect((await poolInfo(poolId)).rewardNftAllocNumber).toBe(15n);
    const held = await Promise.all(players.map(async (player) => (await userStake(poolId, player))[1]));
    expect(held).toContain(MAX_REWARD_PER_ADDRESS);
  });

  it("derives each status the contract reports, at every boundary of a pool's timeline", async () => {
    const now = (await t.publicClient.getBlock()).timestamp;
    const poolId = 21n;
    const times = { begin: now + 100n, endStaking: now + 200n, endVault: now + 300n };
    await t.mined(
      t.deployer.writeContract({
        address: c.staking,
        abi: stakingAbi,
        functionName: "createPool",
        args: [poolId, c.fire, times.begin, times.endStaking, times.endVault, 10n * WEI, 4n, 5n],
      }),
    );
    const seen: string[] = [];
    for (const target of [times.begin - 2n, times.begin, times.endStaking - 2n, times.endStaking, times.endVault - 2n, times.endVault]) {
      const current = (await t.publicClient.getBlock()).timestamp;
      if (target > current) await t.advanceTime(Number(target - current));
      const chainTime = await t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "getBlockchainTime" });
      const info = await poolInfo(poolId);
      expect(poolStatus(info, chainTime), `at ${chainTime - now} s`).toBe(POOL_STATUSES[info.status]);
      seen.push(POOL_STATUSES[info.status]);
    }
    expect(new Set(seen)).toEqual(new Set(POOL_STATUSES));
  });
});
