import { createPublicClient, custom, HttpRequestError, RpcRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { backendTransport } from "../../backend/chain-transport";
import type { BackendChain } from "../../backend/types";
import { reportingRpcErrors, shortError } from "~core/rpc-errors";

describe("the embedded backends' chain RPC errors", () => {
  it("are reported once per failed request, by method, kind and backend part", async () => {
    const failures: unknown[] = [];
    const chain = { rpcUrls: ["http://127.0.0.1:9"], onRpcError: (failure) => void failures.push(failure) } satisfies Pick<
      BackendChain,
      "rpcUrls" | "onRpcError"
    >;
    const client = createPublicClient({ transport: backendTransport(chain, "indexer", { retryCount: 0, timeoutMs: 1_000 }) });
    await expect(client.getBlockNumber()).rejects.toThrow();
    expect(failures).toEqual([{ method: "eth_blockNumber", kind: "transport", source: "indexer" }]);
  });

  it("need no hook: without one the transport is viem's own", async () => {
    const client = createPublicClient({
      transport: backendTransport({ rpcUrls: ["http://127.0.0.1:9"] }, "store", { retryCount: 0, timeoutMs: 1_000 }),
    });
    await expect(client.getBlockNumber()).rejects.toThrow();
  });
});

describe("reportingRpcErrors", () => {
  const answering = (error: { code: number; message: string }) =>
    custom({
      async request() {
        throw new RpcRequestError({ body: {}, error, url: "http://node" });
      },
    });

  it("counts an error answer as rpc, but not a revert, which is the contract's answer", async () => {
    const seen: string[] = [];
    const report = (method: string, kind: string) => void seen.push(`${method} ${kind}`);
    const failing = createPublicClient({ transport: reportingRpcErrors(answering({ code: -32603, message: "internal" }), report) });
    await expect(failing.getBlockNumber()).rejects.toThrow();
    const reverting = createPublicClient({ transport: reportingRpcErrors(answering({ code: 3, message: "execution reverted" }), report) });
    await expect(reverting.call({ to: "0x0000000000000000000000000000000000000001", data: "0x" })).rejects.toThrow();
    expect(seen[0]).toBe("eth_blockNumber rpc");
    expect(seen.filter((line) => line.startsWith("eth_call"))).toEqual([]);
  });
});

describe("shortError", () => {
  it("gives viem's short message, never the details that name the node's URL and its key", () => {
    const error = new HttpRequestError({
      url: "https://bsc.provider.example/v1/SECRET-KEY-123",
      body: { method: "eth_call" },
      status: 500,
    });
    expect(error.message).toContain("SECRET-KEY-123");
    expect(shortError(error)).toBe("HTTP request failed.");
    expect(shortError(new Error("plain"))).toBe("plain");
    expect(shortError("text")).toBe("text");
  });
});
