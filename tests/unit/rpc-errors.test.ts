import { createPublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { backendTransport } from "../../backend/chain-transport";
import type { BackendChain } from "../../backend/types";

describe("the embedded backends' chain RPC errors", () => {
  it("are reported once per failed request, by method, kind and backend part", async () => {
    const failures: unknown[] = [];
    const chain = { rpcUrl: "http://127.0.0.1:9", onRpcError: (failure) => void failures.push(failure) } as BackendChain;
    const client = createPublicClient({ transport: backendTransport(chain, "indexer", { retryCount: 0 }) });
    await expect(client.getBlockNumber()).rejects.toThrow();
    expect(failures).toEqual([{ method: "eth_blockNumber", kind: "transport", source: "indexer" }]);
  });

  it("need no hook: without one the transport is viem's own", async () => {
    const client = createPublicClient({
      transport: backendTransport({ rpcUrl: "http://127.0.0.1:9" } as BackendChain, "store", { retryCount: 0 }),
    });
    await expect(client.getBlockNumber()).rejects.toThrow();
  });
});
