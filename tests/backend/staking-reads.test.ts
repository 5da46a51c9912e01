/**
 * app/features/staking/staking.server.ts against a real local chain, with a counting JSON-RPC proxy in front of it: the
 * pools are read once per block whatever the traffic, a new block or a reverted chain reads again, a wallet's reads
 * are shared the same way, and a wallet's history is scanned once and then only for the new blocks. The module's
 * caches live for the file, so the tests run in order.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, decodeFunctionData, type Hex, toFunctionSelector } from "viem";
import { fireStakingAbi, gameTokenAbi, multicall3Abi } from "../../contracts/generated/abi";
import type * as StakingModule from "~/features/staking/staking.server";
import { freshPlayer, startTestChain, type TestChain } from "../contracts/harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const SELECTOR = {
  queryPoolInfo: toFunctionSelector("queryPoolInfo(uint256)"),
  queryUserStake: toFunctionSelector("queryUserStake(uint256,address)"),
  balanceOf: toFunctionSelector("balanceOf(address)"),
  getTotalPoolSupply: toFunctionSelector("getTotalPoolSupply()"),
  getBlockchainTime: toFunctionSelector("getBlockchainTime()"),
};
const AGGREGATE3 = toFunctionSelector("aggregate3((address,bool,bytes)[])");

interface RpcCall {
  method: string;
  params: unknown[];
}

let t: TestChain;
let proxy: http.Server;
let calls: RpcCall[] = [];
let staking: typeof StakingModule;

/** The view calls made since the last reset: each eth_call's data, and each call inside a Multicall3 batch. */
const viewCalls = (): Hex[] =>
  calls
    .filter((call) => call.method === "eth_call")
    .flatMap((call) => {
      const data = (call.params[0] as { data: Hex }).data;
      if (!data.startsWith(AGGREGATE3)) return [data];
      const batch = decodeFunctionData({ abi: multicall3Abi, data });
      return batch.functionName === "aggregate3" ? batch.args[0].map((inner) => inner.callData) : [];
    });
/** View calls to one function since the last reset. */
const callsTo = (selector: Hex) => viewCalls().filter((data) => data.startsWith(selector)).length;
const countOf = (method: string) => calls.filter((call) => call.method === method).length;

beforeAll(async () => {
  t = await startTestChain();
  // Forwards every request to anvil and notes each JSON-RPC call in it (a batch is an array).
  proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body) as RpcCall | RpcCall[];
      calls.push(...(Array.isArray(parsed) ? parsed : [parsed]));
      const answer = await fetch(t.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
      response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as { port: number };
  process.env.CHAIN_RPC_URL = `http://127.0.0.1:${port}`;
  process.env.DEPLOYMENT_FILE = t.deploymentFile;
  staking = await import("~/features/staking/staking.server");
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await t?.close();
});

const c = () => t.deployment.contracts;

async function fundAndApprove(player: Account, fire: bigint) {
  await t.mined(
    t.deployer.writeContract({ address: c().fire, abi: gameTokenAbi, functionName: "mint", args: [player.address, fire * WEI] }),
  );
  await t.mined(
    t.walletFor(player).writeContract({ address: c().fire, abi: gameTokenAbi, functionName: "approve", args: [c().staking, fire * WEI] }),
  );
}

const deposit = (player: Account, fire: bigint) =>
  t.mined(
    t.walletFor(player).writeContract({ address: c().staking, abi: fireStakingAbi, functionName: "deposit", args: [1n, fire * WEI] }),
  );

describe("reads of the pools, once per block", () => {
  const alice = freshPlayer(3);

  it("reads each pool once for 25 concurrent pages at one block, and gives them all the same snapshot", async () => {
    calls = [];
    const snapshots = await Promise.all(Array.from({ length: 25 }, () => staking.readStakingSnapshot()));
    expect(callsTo(SELECTOR.queryPoolInfo)).toBe(3);
    expect(callsTo(SELECTOR.getTotalPoolSupply)).toBe(1);
    expect(callsTo(SELECTOR.getBlockchainTime)).toBe(1);
    expect(countOf("eth_getBlockByNumber")).toBe(25);
    expect(new Set(snapshots.map((s) => s.blockHash)).size).toBe(1);
    expect(snapshots[0].pools.map((pool) => [pool.poolId, pool.status, pool.takerThreshold])).toEqual([
      [1, "open", 100n * WEI],
      [2, "open", 2_000n * WEI],
      [3, "open", 5_000n * WEI],
    ]);
  });

  it("reads again at a new block, and shows a deposit made since", async () => {
    await fundAndApprove(alice, 500n);
    await deposit(alice, 100n);
    calls = [];
    const snapshot = await staking.readStakingSnapshot();
    expect(callsTo(SELECTOR.queryPoolInfo)).toBe(3);
    expect(snapshot.pools[0]).toMatchObject({ totalStaked: 100n * WEI, stakers: 1n, rewardNftAllocNumber: 1n });
    expect(snapshot.totalPoolSupply).toBe(100n * WEI);
  });

  it("shares a wallet's reads at one block: its stakes in the three pools and its FIRE, read once for 20 pages", async () => {
    const snapshot = await staking.readStakingSnapshot();
    calls = [];
    const results = await Promise.all(Array.from({ length: 20 }, () => staking.readWalletStakes(alice.address, snapshot)));
    expect(callsTo(SELECTOR.queryUserStake)).toBe(3);
    expect(callsTo(SELECTOR.balanceOf)).toBe(1);
    expect(results[19]).toMatchObject({
      fire: 400n * WEI,
      stakes: [{ poolId: 1, staked: 100n * WEI, rewardBoxes: 1n }, { staked: 0n }, { staked: 0n }],
    });
  });

  it("serves nothing stale after the chain goes back: the head's hash decides", async () => {
    const id = await t.testClient.snapshot();
    await deposit(alice, 200n);
    expect((await staking.readStakingSnapshot()).pools[0].totalStaked).toBe(300n * WEI);
    await t.testClient.revert({ id });
    const after = await staking.readStakingSnapshot();
    expect(after.pools[0].totalStaked).toBe(100n * WEI);
    expect((await staking.readWalletStakes(alice.address, after)).stakes[0].staked).toBe(100n * WEI);
  });
});

describe("a wallet's history", () => {
  const bob = freshPlayer(4);

  it("lists deposits and a withdrawal from the contract's events, then scans only the blocks added since", async () => {
    await fundAndApprove(bob, 300n);
    await deposit(bob, 100n);
    await deposit(bob, 150n);
    calls = [];
    let snapshot = await staking.readStakingSnapshot();
    const first = await staking.readStakingHistory(1, bob.address, snapshot);
    expect(first.map((entry) => [entry.kind, entry.amount])).toEqual([
      ["deposit", 100n * WEI],
      ["deposit", 150n * WEI],
    ]);
    expect(first[1]).toMatchObject({ stakeAfter: 250n * WEI, rewardBoxesAfter: 2n });
    expect(first[0].time).toBeGreaterThan(0n);
    const scanned = countOf("eth_getLogs");
    expect(scanned).toBeGreaterThan(0);

    const { endVaultTime } = snapshot.pools[0];
    await t.advanceTime(Number(endVaultTime - snapshot.now) + 1);
    const beforeWithdrawal = await t.testClient.snapshot();
    await t.mined(
      t.walletFor(bob).writeContract({ address: c().staking, abi: fireStakingAbi, functionName: "withdrawAndClaim", args: [1n] }),
    );
    calls = [];
    snapshot = await staking.readStakingSnapshot();
    const second = await staking.readStakingHistory(1, bob.address, snapshot);
    expect(second.map((entry) => entry.kind)).toEqual(["deposit", "deposit", "withdrawal"]);
    expect(second[2]).toMatchObject({ amount: 250n * WEI });
    expect(second[2].kind === "withdrawal" && second[2].rewardBoxIds).toHaveLength(2);
    // Only the new blocks: every getLogs of this read starts after the first scan's last block.
    const ranges = calls
      .filter((call) => call.method === "eth_getLogs")
      .map((call) => BigInt((call.params[0] as { fromBlock: Hex }).fromBlock));
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((from) => from > first.at(-1)!.blockNumber)).toBe(true);

    // The withdrawal's block leaves the chain: the history is read again from the start, without it.
    await t.testClient.revert({ id: beforeWithdrawal });
    await t.testClient.mine({ blocks: 1 });
    const third = await staking.readStakingHistory(1, bob.address, await staking.readStakingSnapshot());
    expect(third.map((entry) => entry.kind)).toEqual(["deposit", "deposit"]);
  });
});

describe("lookedUpWallet", () => {
  const at = (query: string) => staking.lookedUpWallet(new URL(`http://localhost/loyalty${query}`));

  it("checksums a valid address, refuses a malformed one in words, and looks up nothing without one", () => {
    const address = freshPlayer(5).address;
    expect(at(`?wallet=${address.toLowerCase()}`)).toEqual({ wallet: address, typed: address.toLowerCase(), error: null });
    expect(at("?wallet=0x123")).toEqual({
      wallet: null,
      typed: "0x123",
      error: "Enter a wallet address: 0x followed by 40 hexadecimal characters.",
    });
    expect(at("")).toEqual({ wallet: null, typed: "", error: null });
  });
});
