/**
 * The executor's staking actions against a real local chain and SQLite (issue 13): deposits (approve when short,
 * then deposit), withdrawals (withdrawAndClaim with the reward boxes in the result), the refusals before anything
 * is sent as the pool's clock moves (open → locked → ended), and races of one wallet. The tests run in order on
 * one chain, each moving its time forward only. The pure rules are in sso-executor-staking-rules.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type Address, createWalletClient, type Hex, http } from "viem";
import { blindBoxAbi, fireStakingAbi, gameTokenAbi } from "../../contracts/generated/abi";
import { stepGasLimit } from "../../backend/sso/executor/policy";
import { formatChainTime } from "~core/chain-errors";
import { STAKE_POOLS } from "~core/pools";
import { setUpChainWith, type TestChain } from "../contracts/harness";
import { type ExecutorBackend, fund, managedPlayer, newKey, postAction, settled, startExecutorBackends } from "./sso-executor-helpers";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const STANDARD_POOL = STAKE_POOLS[0];

let t: TestChain;
let b: ExecutorBackend;
let c: TestChain["deployment"]["contracts"];

const deposit = (poolId: number, fire: bigint) => ({
  action: "staking.deposit" as const,
  params: { poolId, amount: (fire * WEI).toString() },
  idempotencyKey: newKey(),
});
const withdraw = (poolId: number) => ({ action: "staking.withdraw" as const, params: { poolId }, idempotencyKey: newKey() });
const sent = (wallet: Address) => t.publicClient.getTransactionCount({ address: wallet });
const fireOf = (wallet: Address) =>
  t.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet] });
const stakeOf = (wallet: Address, poolId = 1) =>
  t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "queryUserStake", args: [BigInt(poolId), wallet] });
const poolInfo = (poolId = 1) =>
  t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "queryPoolInfo", args: [BigInt(poolId)] });
const allowanceOf = (wallet: Address) =>
  t.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "allowance", args: [wallet, c.staking] });
/** The pool's times, moved to by the chain's clock: one second past `field`. */
async function passTime(field: "endStakingTime" | "endVaultTime") {
  const now = await t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "getBlockchainTime" });
  await t.advanceTime(Number(BigInt((await poolInfo())[field]) - now) + 1);
}

setUpChainWith(startExecutorBackends, (testChain, started) => ([t, c, b] = [testChain, testChain.deployment.contracts, started]));

describe("staking on a real chain, as the pool's clock moves", () => {
  // A staker at the Standard Pool's threshold (100 FIRE: one box), and one past ten thresholds: the most boxes one
  // address may earn, so its withdrawal is the largest there is.
  let small: Awaited<ReturnType<typeof managedPlayer>>;
  let large: Awaited<ReturnType<typeof managedPlayer>>;

  beforeAll(async () => {
    small = await managedPlayer(b, t, { BNB: 1n, FIRE: 1_000n });
    large = await managedPlayer(b, t, { BNB: 1n, FIRE: 6_000n });
  });

  it("refuses malformed staking requests, an unaffordable stake and a wallet without gas, sending nothing", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, FIRE: 50n });
    const refusals: [unknown, string | RegExp][] = [
      [{ ...deposit(4, 1n), params: { poolId: 4, amount: "1" } }, "params.poolId: must be a stake pool (1, 2, 3)"],
      [
        { ...deposit(1, 1n), params: { poolId: 1, amount: "0" } },
        "params.amount: must be a FIRE amount in wei above zero, in decimal digits",
      ],
      [{ ...deposit(1, 1n), params: { poolId: 1, amount: "1.5" } }, /^params\.amount: must be a FIRE amount in wei/],
      [{ ...deposit(1, 1n), params: { poolId: 1, amount: "-5" } }, /^params\.amount: must be a FIRE amount in wei/],
      [{ ...deposit(1, 1n), params: { poolId: 1, amount: 5 } }, "params.amount: must be a string of decimal digits"],
      [{ ...deposit(1, 1n), params: { poolId: 1, amount: `1${"0".repeat(78)}` } }, /^params\.amount: must be a FIRE amount in wei/],
      [{ ...deposit(1, 1n), params: { poolId: 1, amount: "1", spender: wallet } }, /^params: may hold only poolId and amount/],
      [{ ...withdraw(1), params: { poolId: 1, amount: "1" } }, /^params: may hold only poolId;/],
      [{ ...withdraw(1), params: { poolId: 1.5 } }, "params.poolId: must be a whole number"],
      [deposit(1, 51n), "Your wallet holds 50 FIRE: enter at most that."],
      [deposit(1, 40n), "Stake at least the pool's threshold of 100 FIRE."],
      [deposit(2, 50n), "Stake at least the pool's threshold of 2,000 FIRE."],
      [deposit(1, 100_001n), "One action may stake at most 100,000 FIRE, and this one would stake 100,001 FIRE."],
      [withdraw(1), "You have nothing staked in the Standard Pool."],
    ];
    for (const [body, message] of refusals) {
      const answer = await postAction(b, token, body as Record<string, unknown>);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      if (typeof message === "string") expect(answer.msg).toBe(message);
      else expect(answer.msg).toMatch(message);
    }
    const broke = await managedPlayer(b, t, { FIRE: 100n });
    const noGas = await postAction(b, broke.token, deposit(1, 100n));
    expect(noGas.status).toBe(400);
    expect(noGas.msg).toMatch(
      new RegExp(`^Your wallet ${broke.wallet} has 0 BNB, and this needs about 0\\.\\d{1,4} BNB to pay for gas\\.`),
    );
    expect([await sent(wallet), await sent(broke.wallet)]).toEqual([0, 0]);
  });

  it("stakes 100 FIRE: approve then deposit, both mined, exactly 100 FIRE moved, stake and pool total up", async () => {
    const before = await poolInfo();
    const answer = await postAction(b, small.token, deposit(1, 100n));
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data).toMatchObject({
      action: "staking.deposit",
      wallet: small.wallet,
      params: { poolId: 1, amount: (100n * WEI).toString() },
    });
    expect(answer.data.steps.map((s) => [s.kind, s.label])).toEqual([
      ["approve-stake", "Approve 100 FIRE for staking"],
      ["deposit", "Stake 100 FIRE in the Standard Pool"],
    ]);
    const done = await settled(b, small.token, answer.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => s.status)).toEqual(["mined", "mined"]);
    expect(done.txHash).toBe(done.steps[1].txHash);
    expect(await fireOf(small.wallet)).toBe(900n * WEI);
    expect(await stakeOf(small.wallet)).toEqual([100n * WEI, 1n]);
    const after = await poolInfo();
    expect(after.totalStakingTokens - before.totalStakingTokens).toBe(100n * WEI);
    expect(after.stakingAddrNumber - before.stakingAddrNumber).toBe(1n);
    expect(await allowanceOf(small.wallet)).toBe(0n);
  });

  it("skips the approval when the allowance already covers the amount, and uses only what it needs", async () => {
    // The wallet approved 5,500 FIRE itself earlier (anvil signs for it here).
    await t.testClient.impersonateAccount({ address: large.wallet });
    const own = createWalletClient({ account: large.wallet, chain: t.publicClient.chain, transport: http(t.rpcUrl) });
    await t.mined(own.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.staking, 5_500n * WEI] }));
    await t.testClient.stopImpersonatingAccount({ address: large.wallet });

    const answer = await postAction(b, large.token, deposit(1, 5_100n));
    expect(answer.data.steps.map((s) => s.kind)).toEqual(["deposit"]);
    const done = await settled(b, large.token, answer.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(await allowanceOf(large.wallet)).toBe(400n * WEI);
    expect(await fireOf(large.wallet)).toBe(900n * WEI);
    expect(await stakeOf(large.wallet)).toEqual([5_100n * WEI, 10n]);
  });

  it("runs two deposits of one wallet in turn, and refuses the one its balance no longer covers when its turn comes", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, FIRE: 1_000n });
    const [first, second] = await Promise.all([postAction(b, token, deposit(1, 600n)), postAction(b, token, deposit(1, 600n))]);
    // Both were affordable when asked; the queue re-checks the second against the chain after the first.
    expect([first.status, second.status], `answered: ${first.msg} | ${second.msg}`).toEqual([200, 200]);
    const outcomes = await Promise.all([settled(b, token, first.data.id), settled(b, token, second.data.id)]);
    expect(outcomes.map((e) => [e.status, e.error]).sort()).toEqual([
      ["failed", "Your wallet holds 400 FIRE: enter at most that."],
      ["mined", null],
    ]);
    expect(await fireOf(wallet)).toBe(400n * WEI);
    expect(await stakeOf(wallet)).toEqual([600n * WEI, 6n]);
    // One approval and one deposit: the refused one sent nothing.
    expect(await sent(wallet)).toBe(2);
  });

  it("refuses a withdrawal before the vault ends, naming the date, and sends nothing", async () => {
    const { endVaultTime } = await poolInfo();
    const answer = await postAction(b, small.token, withdraw(1));
    expect(answer.status).toBe(400);
    expect(answer.msg).toBe(
      `Your stake in the Standard Pool is locked in the vault until ${formatChainTime(endVaultTime)}. You can withdraw and claim after that.`,
    );
    expect(answer.msg).toMatch(/until \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    expect(await sent(small.wallet)).toBe(2);
  });

  it("refuses a deposit once staking has ended (the stakes locked), and sends nothing", async () => {
    await passTime("endStakingTime");
    expect((await poolInfo()).status).toBe(2);
    const answer = await postAction(b, small.token, deposit(1, 100n));
    expect([answer.status, answer.msg]).toEqual([
      400,
      "Staking in the Standard Pool has ended: it takes no more deposits, and the stakes are locked in the vault.",
    ]);
    expect(await sent(small.wallet)).toBe(2);
    // Still locked: withdrawing waits for the vault too.
    expect((await postAction(b, small.token, withdraw(1))).msg).toMatch(/^Your stake in the Standard Pool is locked in the vault until /);
  });

  it("after the vault ends, withdraws and claims: the FIRE back and the reward boxes in the result and owned", async () => {
    await passTime("endVaultTime");
    expect((await poolInfo()).status).toBe(3);
    const answer = await postAction(b, large.token, withdraw(1));
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data.steps.map((s) => [s.kind, s.label])).toEqual([
      ["withdraw", "Withdraw 5,100 FIRE and claim 10 Standard loot boxes from the Standard Pool"],
    ]);
    const done = await settled(b, large.token, answer.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.result?.amountReturned).toBe((5_100n * WEI).toString());
    expect(done.result?.rewardBoxIds).toHaveLength(10);
    expect(await fireOf(large.wallet)).toBe(6_000n * WEI);
    expect(await stakeOf(large.wallet)).toEqual([0n, 0n]);
    const [ids, types] = await t.publicClient.readContract({
      address: c.box,
      abi: blindBoxAbi,
      functionName: "queryUserBoxes",
      args: [large.wallet],
    });
    expect(ids.map(String).sort()).toEqual([...done.result!.rewardBoxIds!].sort());
    expect(types).toEqual(Array.from({ length: 10 }, () => BigInt(STANDARD_POOL.rewardBoxType)));
    // The largest withdrawal fits its gas limit with room to spare.
    const receipt = await t.publicClient.getTransactionReceipt({ hash: done.txHash as Hex });
    expect(receipt.gasUsed * 5n).toBeLessThan(stepGasLimit("withdraw", 10) * 4n);

    // Taken back once: the next request is refused up front.
    const again = await postAction(b, large.token, withdraw(1));
    expect([again.status, again.msg]).toEqual([400, "You have nothing staked in the Standard Pool."]);
  });

  it("withdraws a stake of one threshold with its one box, and a second withdrawal raced with it fails at its turn", async () => {
    const [first, second] = await Promise.all([postAction(b, small.token, withdraw(1)), postAction(b, small.token, withdraw(1))]);
    expect(first.data.steps.map((s) => s.label)).toEqual(["Withdraw 100 FIRE and claim 1 Standard loot box from the Standard Pool"]);
    const outcomes = await Promise.all([settled(b, small.token, first.data.id), settled(b, small.token, second.data.id)]);
    expect(outcomes.map((e) => [e.status, e.error]).sort()).toEqual([
      ["failed", "You have nothing staked in the Standard Pool."],
      ["mined", null],
    ]);
    const mined = outcomes.find((e) => e.status === "mined")!;
    expect(mined.result).toMatchObject({ amountReturned: (100n * WEI).toString() });
    expect(mined.result?.rewardBoxIds).toHaveLength(1);
    expect(await fireOf(small.wallet)).toBe(1_000n * WEI);
    expect(await sent(small.wallet)).toBe(3);
  });

  it("refuses a deposit after the pool has ended", async () => {
    await fund(t, small.wallet, { BNB: 1n });
    const answer = await postAction(b, small.token, deposit(1, 100n));
    expect([answer.status, answer.msg]).toEqual([400, "Staking in the Standard Pool has ended: it takes no more deposits."]);
  });
});
