/**
 * What counts as final on the chain (decision 0029), one rule for the market indexer's paying streams, the reconciler
 * and card delivery: a block is final once it is at least CHAIN_CONFIRMATIONS below the head and, where
 * CHAIN_FINALITY names a block tag (`safe`, `finalized`), at or below the node's block of that tag too: the lower of
 * the two wins. On the local chain (0 confirmations, no tag) the head is final.
 */
import type { BlockTag } from "viem";

/** `confirmations`: head − CHAIN_CONFIRMATIONS only; a tag: also no higher than the node's block of that tag. */
export const CHAIN_FINALITIES = ["confirmations", "safe", "finalized"] as const;
export type ChainFinality = (typeof CHAIN_FINALITIES)[number];

/** The highest final block, from the head and (tag finality) the node's tagged block. */
export function finalBlock(head: bigint, confirmations: number, tagged: bigint | null = null): bigint {
  const deep = head - BigInt(confirmations);
  return tagged !== null && tagged < deep ? tagged : deep;
}

/** A change not final yet: blocks on top of it now, and how many the market waits for. */
export interface PendingConfirmations {
  have: number;
  need: number;
}

/**
 * How far a change in `block` is from final, or null when it is final (or unknown). `need` is the current distance
 * from the head down to the final block: CHAIN_CONFIRMATIONS, or what a tag lags the head by.
 */
export function pendingConfirmations(block: bigint | null, head: bigint, final: bigint): PendingConfirmations | null {
  if (block === null || block <= final) return null;
  const have = head > block ? head - block : 0n;
  return { have: Number(have), need: Number(head - final) };
}

/** The reads finality needs of a node (a viem public client has them). */
export interface FinalityClient {
  getBlockNumber(args: { cacheTime: number }): Promise<bigint>;
  getBlock(args: { blockTag: BlockTag }): Promise<{ number: bigint | null }>;
}

/** Whether every mined block is final at once (the local chain's 0 confirmations, no tag): nothing to wait for. */
export function headIsFinal(chain: { confirmations: number; finality?: ChainFinality }): boolean {
  return chain.confirmations === 0 && (chain.finality ?? "confirmations") === "confirmations";
}

/** The head and the highest final block, read now. */
export async function readFinality(
  client: FinalityClient,
  chain: { confirmations: number; finality?: ChainFinality },
): Promise<{ head: bigint; final: bigint }> {
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const tag = chain.finality && chain.finality !== "confirmations" ? chain.finality : null;
  const tagged = tag ? ((await client.getBlock({ blockTag: tag })).number ?? 0n) : null;
  return { head, final: finalBlock(head, chain.confirmations, tagged) };
}
