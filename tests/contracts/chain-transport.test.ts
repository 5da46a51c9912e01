/** The one chain transport (core/chain-transport.ts) against a node behind a provider-like proxy (issue 41). */
import { createPublicClient, getAbiItem, HttpRequestError, InvalidInputRpcError, RpcRequestError, TimeoutError } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gameTokenAbi } from "../../contracts/generated/abi";
import { chainTransport, isLogRangeRefusal, isProviderBusy, logRangeReader, readableChain, RPC_BATCH_SIZE } from "~core/chain-transport";
import { startRpcProxy, type RpcProxy } from "../support/rpc-proxy";
import { freshPlayer, setUpTestChain, type TestChain } from "./harness";

const TRANSFER = getAbiItem({ abi: gameTokenAbi, name: "Transfer" });
/** Nothing listens there: a node that is down. */
const DOWN = "http://127.0.0.1:9";

let t: TestChain;
setUpTestChain((chain) => {
  t = chain;
});

let proxy: RpcProxy;
beforeAll(async () => {
  // A tenth of a public node's limit: anvil mines long runs of blocks slowly.
  proxy = await startRpcProxy({ target: t.rpcUrl, maxLogRange: 100, seed: 41 });
});
afterAll(() => proxy.stop());

const clientOf = (urls: string[]) =>
  createPublicClient({ transport: chainTransport(urls, { timeoutMs: 2_000, retryDelayMs: 10 }), cacheTime: 0 });

describe("chainTransport", () => {
  it("answers through a provider that rate-limits half the requests and drops some", async () => {
    proxy.setRateLimitShare(0.5);
    proxy.dropNext(2);
    const client = clientOf([proxy.url]);
    const before = { ...proxy.stats };
    try {
      // One after another: viem would share one request among calls made at once.
      for (let i = 0; i < 12; i += 1) expect(await client.getChainId()).toBe(t.deployment.chainId);
    } finally {
      proxy.setRateLimitShare(0);
    }
    expect(proxy.stats.rateLimited).toBeGreaterThan(before.rateLimited);
    expect(proxy.stats.dropped).toBe(before.dropped + 2);
  });

  it("goes on to the next URL when one is down", async () => {
    const client = clientOf([DOWN, proxy.url]);
    expect(await client.getChainId()).toBe(t.deployment.chainId);
  });

  it("sends calls made at once in JSON-RPC batches of at most RPC_BATCH_SIZE, which a node takes whole", async () => {
    // A generous deadline: a batch the busy test machine answers late is sent again, which would count its calls twice.
    const client = createPublicClient({ transport: chainTransport([proxy.url], { batch: true, timeoutMs: 30_000 }), cacheTime: 0 });
    const before = proxy.stats.requests;
    proxy.stats.largestBatch = 0;
    const count = 2 * RPC_BATCH_SIZE + 50;
    const balances = await Promise.all(Array.from({ length: count }, () => client.getBalance({ address: freshPlayer(3).address })));
    expect(new Set(balances).size).toBe(1);
    expect(proxy.stats.largestBatch).toBe(RPC_BATCH_SIZE);
    expect(proxy.stats.requests - before).toBeGreaterThanOrEqual(3);
  });

  it("fails once every URL has failed every retry", async () => {
    await expect(clientOf([DOWN]).getBlockNumber()).rejects.toThrow();
  });
});

describe("readableChain", () => {
  it("sends view calls made at once as one Multicall3 call, which the local chain has where BSC has it", async () => {
    const client = createPublicClient({
      chain: readableChain(t.deployment.chainId),
      batch: { multicall: true },
      transport: chainTransport([proxy.url], { timeoutMs: 2_000 }),
    });
    const calls = () => proxy.stats.methods.eth_call ?? 0;
    const before = calls();
    const players = [3, 4, 5, 6, 7] as const;
    const balances = await Promise.all(
      players.map((index) =>
        client.readContract({
          address: t.deployment.contracts.fire,
          abi: gameTokenAbi,
          functionName: "balanceOf",
          args: [freshPlayer(index).address],
        }),
      ),
    );
    expect(balances).toHaveLength(players.length);
    expect(calls()).toBe(before + 1);
  });
});

describe("logRangeReader", () => {
  it("reads a range wider than the provider allows by halving it, and keeps the width that worked", async () => {
    const fire = t.deployment.contracts.fire;
    const wallet = t.deployer;
    const first = await t.publicClient.getBlockNumber({ cacheTime: 0 });
    const to = freshPlayer(3).address;
    await t.mined(wallet.writeContract({ address: fire, abi: gameTokenAbi, functionName: "mint", args: [to, 1n] }));
    await t.testClient.mine({ blocks: 250 });
    await t.mined(wallet.writeContract({ address: fire, abi: gameTokenAbi, functionName: "mint", args: [to, 2n] }));
    const last = await t.publicClient.getBlockNumber({ cacheTime: 0 });

    const client = clientOf([proxy.url]);
    const ranges = logRangeReader(400);
    const refusedBefore = proxy.stats.refusedLogRanges;
    const logs = await ranges.read(first, last, (fromBlock, toBlock) =>
      client.getLogs({ address: fire, event: TRANSFER, args: { to }, fromBlock, toBlock, strict: true }),
    );
    expect(logs.map((log) => log.args.value)).toEqual([1n, 2n]);
    const refused = proxy.stats.refusedLogRanges;
    expect(refused).toBeGreaterThan(refusedBefore);
    expect(ranges.width()).toBeLessThanOrEqual(100n);

    // The narrower width from the start: no refusal this time.
    await ranges.read(first, last, (fromBlock, toBlock) => client.getLogs({ address: fire, event: TRANSFER, fromBlock, toBlock }));
    expect(proxy.stats.refusedLogRanges).toBe(refused);
  });

  it("passes on an error that is no range refusal", async () => {
    const ranges = logRangeReader(100);
    const failure = new Error("node down");
    await expect(ranges.read(1n, 500n, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(ranges.width()).toBe(100n);
  });
});

describe("isLogRangeRefusal", () => {
  const answer = (code: number, message: string) =>
    new InvalidInputRpcError(new RpcRequestError({ body: {}, error: { code, message }, url: "http://node" }));

  it.each([
    [-32000, "exceed maximum block range: 5000"],
    [-32000, "block range too large"],
    [-32005, "query returned more than 10000 results"],
    [-32602, "eth_getLogs is limited to a 10,000 range"],
    [-32000, "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range"],
  ])("knows %i %s", (code, message) => {
    expect(isLogRangeRefusal(answer(code, message))).toBe(true);
  });

  it("does not take a node's other errors for one", () => {
    expect(isLogRangeRefusal(answer(-32000, "header not found"))).toBe(false);
    expect(isLogRangeRefusal(new Error("block range too large"))).toBe(false);
  });
});

describe("isProviderBusy", () => {
  const rpc = (code: number, message: string, status?: number) =>
    new RpcRequestError({ body: {}, error: { code, message }, url: "http://node", ...(status ? { status } : {}) });

  it("knows a rate limit, a 5xx, no answer and a timeout: a transaction sent then was not refused", () => {
    expect(isProviderBusy(rpc(429, "Too many requests", 429))).toBe(true);
    expect(isProviderBusy(rpc(-32005, "limit exceeded"))).toBe(true);
    expect(isProviderBusy(rpc(-32000, "upstream error", 502))).toBe(true);
    expect(isProviderBusy(new HttpRequestError({ url: "http://node", status: 503 }))).toBe(true);
    expect(isProviderBusy(new TimeoutError({ body: {}, url: "http://node" }))).toBe(true);
  });

  it("does not take the node's refusal of a transaction for one", () => {
    expect(isProviderBusy(rpc(-32000, "nonce too low"))).toBe(false);
    expect(isProviderBusy(rpc(-32003, "insufficient funds for gas * price + value"))).toBe(false);
    expect(isProviderBusy(new Error("Too many requests"))).toBe(false);
  });
});
