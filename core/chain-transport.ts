/**
 * How the server, the executor and the indexer reach the chain (issue 41): the chain is a remote service that
 * limits, drops and refuses. One transport over every configured RPC URL (viem's fallback: the next URL when one
 * fails, then the whole list again after a backoff), and event logs read in bounded ranges that shrink when a
 * provider refuses a range.
 */
import {
  type Address,
  BaseError,
  type Chain,
  defineChain,
  fallback,
  http,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
  type Transport,
} from "viem";

/** Attempts after the first, over the whole list of URLs; waits 2^n × CHAIN_RETRY_DELAY_MS (or the provider's Retry-After). */
export const CHAIN_RETRY_COUNT = 4;
export const CHAIN_RETRY_DELAY_MS = 200;
/** Blocks per `eth_getLogs` call unless configured (CHAIN_LOG_RANGE): what public BSC endpoints accept. */
export const DEFAULT_LOG_RANGE = 1_000;

/**
 * Calls per JSON-RPC batch: a drop's simultaneous reads made batches of a thousand, which a node (anvil, and providers
 * with a body limit) refuses whole as "Invalid request" (decision 0035).
 */
export const RPC_BATCH_SIZE = 100;

/** Multicall3's address on BSC, its testnet and most chains; the local chain gets its code there too (contracts/chain.ts). */
export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/**
 * The chain as viem's clients need it for batched reads: a page's or a range's view calls at one block go out as one
 * Multicall3 `aggregate3` eth_call, one request on a provider's meter instead of one each.
 */
export function readableChain(chainId: number): Chain {
  return defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
}

export interface ChainTransportOptions {
  /** Per request, per URL. */
  timeoutMs: number;
  /** `true`: batches of at most RPC_BATCH_SIZE calls. */
  batch?: boolean | { batchSize?: number };
  retryCount?: number;
  retryDelayMs?: number;
}

/** CHAIN_RPC_URL's comma-separated list, trimmed, empty entries dropped. */
export function parseRpcUrls(text: string): string[] {
  return text
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);
}

export function chainTransport(urls: readonly string[], options: ChainTransportOptions): Transport {
  if (!urls.length) throw new Error("chainTransport needs at least one RPC URL");
  const batch = options.batch === true ? { batchSize: RPC_BATCH_SIZE } : options.batch;
  const nodes = urls.map((url) => http(url, { batch, timeout: options.timeoutMs, retryCount: 0 }));
  return fallback(nodes, {
    retryCount: options.retryCount ?? CHAIN_RETRY_COUNT,
    retryDelay: options.retryDelayMs ?? CHAIN_RETRY_DELAY_MS,
  });
}

/** Rate limits as providers answer them: HTTP 429, JSON-RPC 429 (Alchemy in batches), -32005 (limit exceeded), -32007 (QuickNode). */
const BUSY_CODES = new Set([429, -32005, -32007]);

/**
 * The node did not take the request this time (no answer, a timeout, a rate limit, a 5xx): asking again later may
 * work, and a transaction sent so was not refused for what it is.
 */
export function isProviderBusy(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(
    error.walk(
      (e) =>
        e instanceof HttpRequestError ||
        e instanceof TimeoutError ||
        (e instanceof RpcRequestError && (BUSY_CODES.has(e.code) || e.status === 429 || (e.status ?? 0) >= 500)),
    ),
  );
}

/**
 * Whether a provider refused a log query for its width or its size. There is no standard code: BSC's nodes say
 * "exceed maximum block range", geth-based ones "block range too large" (-32000), Infura "query returned more than
 * 10000 results" (-32005), Alchemy "Log response size exceeded", QuickNode "eth_getLogs is limited to a 10,000
 * range" (-32602), and so the words are what is matched.
 */
export function isLogRangeRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const answer = error.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  const text = `${answer?.details ?? ""} ${error.details ?? ""} ${error.shortMessage}`.toLowerCase();
  return /block range|range (is )?too (large|wide|big)|more than \d+ results|response size|limited to|too many (blocks|results|logs)|range limit/.test(
    text,
  );
}

/**
 * Reads logs over [fromBlock, toBlock] in ranges of at most `range` blocks, in order. A range the provider refuses
 * for its width is halved and read again, down to one block; the narrower width is kept for the ranges after, and
 * for later calls (the reader remembers what the provider accepted).
 */
export function logRangeReader(initialRange: number) {
  let range = BigInt(Math.max(1, initialRange));
  return {
    /** The width the next call starts with. */
    width: () => range,
    async read<T>(fromBlock: bigint, toBlock: bigint, query: (fromBlock: bigint, toBlock: bigint) => Promise<T[]>): Promise<T[]> {
      const logs: T[] = [];
      let from = fromBlock;
      while (from <= toBlock) {
        const to = from + range - 1n < toBlock ? from + range - 1n : toBlock;
        try {
          logs.push(...(await query(from, to)));
          from = to + 1n;
        } catch (error) {
          if (!isLogRangeRefusal(error) || to === from) throw error;
          const half = (to - from + 1n) / 2n;
          range = half > 0n ? half : 1n;
        }
      }
      return logs;
    },
  };
}
