/**
 * A chain event history read incrementally, for the pages that show one (a wallet's stakes, a ship's actions): scanned
 * once from the deployment block in ranges a public node accepts, then only the blocks added since; scanned again
 * when the block it ended at is no longer on the chain (a reorg, a reverted local chain). Bounded in histories kept.
 */
import type { Hash, PublicClient } from "viem";

/** Blocks per getLogs call: what public BSC nodes accept. */
const LOG_RANGE = 2_000n;

/** The block a page reads at: its number and hash. */
export interface ReadAt {
  blockNumber: bigint;
  blockHash: Hash;
}

/** [from, to] in getLogs ranges. */
export function blockRanges(fromBlock: bigint, toBlock: bigint): [bigint, bigint][] {
  const ranges: [bigint, bigint][] = [];
  for (let start = fromBlock; start <= toBlock; start += LOG_RANGE) {
    ranges.push([start, start + LOG_RANGE - 1n < toBlock ? start + LOG_RANGE - 1n : toBlock]);
  }
  return ranges;
}

/** The timestamp of each block the logs are in, one read per block. */
export async function blockTimes(client: PublicClient, logs: readonly { blockNumber: bigint }[]): Promise<Map<bigint, bigint>> {
  const blocks = [...new Set(logs.map((log) => log.blockNumber))];
  return new Map(
    await Promise.all(blocks.map(async (number) => [number, (await client.getBlock({ blockNumber: number })).timestamp] as const)),
  );
}

/** Logs oldest first: by block, then by their index in it. */
export function byChainOrder(a: { blockNumber: bigint; logIndex: number }, b: { blockNumber: bigint; logIndex: number }): number {
  return a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1;
}

interface Scan<E> {
  toBlock: bigint;
  toHash: Hash;
  entries: E[];
}

export class EventHistories<E> {
  private readonly scans = new Map<string, Scan<E>>();

  constructor(private readonly kept: number) {}

  /** The history of `key` up to `at`: what was scanned before, if still on the chain, and `scan` of the blocks after it. */
  async read(
    client: PublicClient,
    key: string,
    at: ReadAt,
    firstBlock: bigint,
    scan: (fromBlock: bigint, toBlock: bigint) => Promise<E[]>,
  ): Promise<E[]> {
    const before = this.scans.get(key);
    let base: Scan<E> | null = null;
    if (before && before.toBlock <= at.blockNumber) {
      const stillThere =
        before.toHash === at.blockHash ||
        (await client.getBlock({ blockNumber: before.toBlock }).catch(() => null))?.hash === before.toHash;
      if (stillThere) base = before;
    }
    const start = base ? base.toBlock + 1n : firstBlock;
    const added = start <= at.blockNumber ? await scan(start, at.blockNumber) : [];
    const entries = [...(base?.entries ?? []), ...added];
    this.scans.delete(key);
    if (this.scans.size >= this.kept) this.scans.delete(this.scans.keys().next().value!);
    this.scans.set(key, { toBlock: at.blockNumber, toHash: at.blockHash, entries });
    return entries;
  }
}
