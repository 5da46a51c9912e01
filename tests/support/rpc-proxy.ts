/**
 * A JSON-RPC proxy in front of a test node that behaves like a public or paid provider (issue 41): it refuses
 * `eth_getLogs` over more than `maxLogRange` blocks (as public BSC endpoints do, with their words), answers HTTP 429
 * to a share of requests, adds latency, and can drop requests (the connection closes with no answer). The share of
 * 429s comes from a seeded generator, so a failing run can be replayed.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeFunctionData, type Hex, toFunctionSelector } from "viem";
import { multicall3Abi } from "../../contracts/generated/abi";

export interface RpcProxyOptions {
  /** The node's URL (anvil's). */
  target: string;
  /** Widest `eth_getLogs` range answered; wider ones get the provider's refusal. */
  maxLogRange?: number;
  /** Share of HTTP requests (0..1) answered 429 Too Many Requests. */
  rateLimitShare?: number;
  /** Added before each answer. */
  latencyMs?: number;
  seed?: number;
}

export interface RpcProxyStats {
  /** HTTP requests received (a JSON-RPC batch is one). */
  requests: number;
  rateLimited: number;
  /** eth_getLogs calls refused for their range. */
  refusedLogRanges: number;
  dropped: number;
  /** The lowest block an answered eth_getLogs call started at. */
  lowestLogBlock: bigint | null;
  /** The most JSON-RPC calls one HTTP request carried. */
  largestBatch: number;
  /** JSON-RPC calls forwarded, by method. */
  methods: Record<string, number>;
  /** eth_call requests, by the address called (lower case): a Multicall3 batch counts once, for Multicall3. */
  callsTo: Record<string, number>;
  /** View calls by function selector, each call inside a Multicall3 batch counted on its own (what the node reads). */
  selectors: Record<string, number>;
}

const AGGREGATE3 = toFunctionSelector("aggregate3((address,bool,bytes)[])");

/** The calls an eth_call's data makes: itself, or each call of a Multicall3 aggregate3 batch. */
function innerCalls(data: Hex): Hex[] {
  if (!data.startsWith(AGGREGATE3)) return [data];
  const batch = decodeFunctionData({ abi: multicall3Abi, data });
  return batch.functionName === "aggregate3" ? batch.args[0].map((inner) => inner.callData) : [];
}

export interface RpcProxy {
  url: string;
  stats: RpcProxyStats;
  /** The next `n` requests are dropped: the connection closes without an answer. */
  dropNext(n: number): void;
  /** While down, every request is dropped. */
  setDown(down: boolean): void;
  /** Changes the share of 429s from now on. */
  setRateLimitShare(share: number): void;
  /** The next `n` requests that call `method` are answered 429, as a busy provider answers. */
  rateLimitNext(method: string, n: number): void;
  stop(): Promise<void>;
}

/** Public BSC nodes' refusal of a wide range (code -32000, not a rate limit: asking again gets the same answer). */
export const LOG_RANGE_REFUSAL = (max: number) => ({ code: -32000, message: `exceed maximum block range: ${max}` });

interface RpcCall {
  jsonrpc: "2.0";
  id: number | string | null;
  method: string;
  params?: unknown[];
}

export async function startRpcProxy(options: RpcProxyOptions): Promise<RpcProxy> {
  const random = mulberry32(options.seed ?? 1);
  let rateLimitShare = options.rateLimitShare ?? 0;
  let toDrop = 0;
  /** Requests still to refuse with a 429, by the method they call. */
  const toRefuse = new Map<string, number>();
  let down = false;
  const stats: RpcProxyStats = {
    requests: 0,
    rateLimited: 0,
    refusedLogRanges: 0,
    dropped: 0,
    lowestLogBlock: null,
    largestBatch: 0,
    methods: {},
    callsTo: {},
    selectors: {},
  };

  const forward = async (body: unknown): Promise<unknown> => {
    const response = await fetch(options.target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return response.json();
  };

  /** The head, for a getLogs range that ends at a tag. */
  const head = async (): Promise<bigint> =>
    BigInt(((await forward({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber", params: [] })) as { result: string }).result);

  const blockOf = async (tag: unknown, fallback: "latest" | "earliest"): Promise<bigint> => {
    const value = typeof tag === "string" ? tag : fallback;
    if (value === "earliest") return 0n;
    if (value.startsWith("0x")) return BigInt(value);
    return head();
  };

  /** The provider's refusal of a call, or null when it is forwarded. */
  const refusal = async (call: RpcCall) => {
    if (call.method !== "eth_getLogs") return null;
    const filter = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
    if (filter.blockHash) return null;
    const from = await blockOf(filter.fromBlock, "latest");
    const to = await blockOf(filter.toBlock, "latest");
    const widest = BigInt(options.maxLogRange ?? Number.MAX_SAFE_INTEGER);
    if (to - from + 1n <= widest) {
      if (stats.lowestLogBlock === null || from < stats.lowestLogBlock) stats.lowestLogBlock = from;
      return null;
    }
    stats.refusedLogRanges += 1;
    return { jsonrpc: "2.0", id: call.id, error: LOG_RANGE_REFUSAL(Number(widest)) };
  };

  const answer = async (call: RpcCall): Promise<unknown> => {
    stats.methods[call.method] = (stats.methods[call.method] ?? 0) + 1;
    const to = call.method === "eth_call" ? (call.params?.[0] as { to?: string } | undefined)?.to?.toLowerCase() : undefined;
    if (to) stats.callsTo[to] = (stats.callsTo[to] ?? 0) + 1;
    const data = call.method === "eth_call" ? (call.params?.[0] as { data?: Hex; input?: Hex } | undefined) : undefined;
    for (const inner of innerCalls(data?.data ?? data?.input ?? "0x")) {
      const selector = inner.slice(0, 10);
      if (selector.length === 10) stats.selectors[selector] = (stats.selectors[selector] ?? 0) + 1;
    }
    return (await refusal(call)) ?? forward(call);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void (async () => {
        stats.requests += 1;
        if (down || toDrop > 0) {
          if (!down) toDrop -= 1;
          stats.dropped += 1;
          request.socket.destroy();
          return;
        }
        if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
        const refused = [...toRefuse].find(([method, n]) => n > 0 && Buffer.concat(chunks).includes(`"${method}"`));
        if (refused) toRefuse.set(refused[0], refused[1] - 1);
        if (refused || random() < rateLimitShare) {
          stats.rateLimited += 1;
          response.writeHead(429, { "content-type": "application/json" });
          response.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: 429, message: "Too many requests" } }));
          return;
        }
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcCall | RpcCall[];
          stats.largestBatch = Math.max(stats.largestBatch, Array.isArray(body) ? body.length : 1);
          const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
          response.writeHead(200, { "content-type": "application/json" });
          response.end(JSON.stringify(result));
        } catch (error) {
          response.writeHead(502, { "content-type": "text/plain" });
          response.end(`proxy: ${(error as Error).message}`);
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    dropNext(n) {
      toDrop += n;
    },
    setDown(value) {
      down = value;
    },
    setRateLimitShare(share) {
      rateLimitShare = share;
    },
    rateLimitNext(method, n) {
      toRefuse.set(method, (toRefuse.get(method) ?? 0) + n);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small seeded generator in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
