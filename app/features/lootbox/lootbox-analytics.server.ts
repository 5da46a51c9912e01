/**
 * The `purchase` analytics event of a browser wallet's loot box purchase (issue 12), reported by its island once
 * confirmed, and the `select_content` of the boxes it opens (issue 23). A managed wallet's are the executor's to
 * report (decision 0009). Nothing the browser says is trusted: the event is built from the sale's BoxesPurchased
 * event in the transaction's receipt, read from the chain, and only for the wallet the session is bound to. Each
 * transaction is emitted once by all the processes sharing REDIS_URL (for SHARED_ONCE_TTL_SECONDS), else once per
 * server process (a restart may emit a purchase seen again; the sink keys on transaction_id). Decision 0012.
 */
import type { Hash } from "viem";
import { boxPurchaseFromLogs, openedBoxesFromLogs } from "../../../contracts/lootbox-events";
import { sameAddress } from "~core/address";
import { boxPurchaseEvent, type BoxPurchase, type PurchaseEvent, type SelectContentEvent } from "~core/analytics";
import { emitAnalytics } from "~/services/analytics.server";
import { publicChainConfig, readReceipt } from "~/services/chain.server";
import { logProblem } from "~/services/request-scope.server";
import { sharedRedis, withinMs } from "~/services/redis.server";

/** `claim` is true the first time a key is claimed, and again after `release`. */
export interface OnceGuard {
  claim(key: string): boolean | Promise<boolean>;
  release(key: string): void | Promise<void>;
}

/** Remembers the last `limit` keys, in this process. */
export function onceEach(limit = 10_000) {
  const seen = new Set<string>();
  return {
    claim(key: string): boolean {
      if (seen.has(key)) return false;
      seen.add(key);
      if (seen.size > limit) seen.delete(seen.values().next().value!);
      return true;
    },
    release(key: string): void {
      seen.delete(key);
    },
  };
}

/** How long Redis remembers a claimed transaction: far past any report of it a browser may repeat. */
export const SHARED_ONCE_TTL_SECONDS = 7 * 24 * 60 * 60;

/** What sharedOnceEach needs of a node-redis client. */
export interface OnceStore {
  set(key: string, value: string, options: { condition: "NX"; expiration: { type: "EX"; value: number } }): Promise<string | null>;
  del(key: string): Promise<number>;
}

/**
 * Remembers keys for every process sharing `redis`: a claim is `SET prefix+key 1 NX EX ttl`, a release `DEL`. When
 * Redis fails, the claim falls back to `local` (this process's memory, as without REDIS_URL) and is released there.
 */
export function sharedOnceEach(
  redis: OnceStore,
  {
    prefix,
    ttlSeconds = SHARED_ONCE_TTL_SECONDS,
    local = onceEach(),
    warn = logProblem,
  }: { prefix: string; ttlSeconds?: number; local?: OnceGuard; warn?: (message: string, error?: unknown) => void },
): OnceGuard {
  const claimedLocally = new Set<string>();
  return {
    async claim(key) {
      try {
        const set = await withinMs(redis.set(prefix + key, "1", { condition: "NX", expiration: { type: "EX", value: ttlSeconds } }));
        return set === "OK";
      } catch (error) {
        warn(`analytics: Redis failed, ${prefix}${key} is claimed in this process only`, error);
        if (!(await local.claim(key))) return false;
        claimedLocally.add(key);
        return true;
      }
    },
    async release(key) {
      if (claimedLocally.delete(key)) return local.release(key);
      try {
        await withinMs(redis.del(prefix + key));
      } catch (error) {
        warn(`analytics: Redis failed, ${prefix}${key} stays claimed until it expires`, error);
      }
    },
  };
}

/** The live guard of `name`: shared through REDIS_URL when it is set (looked up on first use), else this process's memory. */
function liveGuard(name: string): OnceGuard {
  let guard: OnceGuard | undefined;
  const pick = () => {
    if (guard) return guard;
    const redis = sharedRedis();
    guard = redis ? sharedOnceEach(redis, { prefix: `analytics:${name}:` }) : onceEach();
    return guard;
  };
  return { claim: (key) => pick().claim(key), release: (key) => pick().release(key) };
}

export interface PurchaseDeps {
  read(hash: Hash): Promise<BoxPurchase | null>;
  emit(event: PurchaseEvent): void;
  guard: OnceGuard;
}

async function readBoxPurchase(hash: Hash): Promise<BoxPurchase | null> {
  const receipt = await readReceipt(hash);
  if (!receipt || receipt.status !== "success") return null;
  return boxPurchaseFromLogs(hash, receipt.logs, publicChainConfig().contracts);
}

const liveDeps: PurchaseDeps = { read: readBoxPurchase, emit: emitAnalytics, guard: liveGuard("purchase") };

/**
 * Emits the events `read` finds in transaction `hash`, once. The hash is claimed before the chain is read, so two
 * requests racing on it emit once; a failed read, or one that finds nothing to emit, releases it. The count emitted.
 */
async function emitOncePerTransaction<E>(
  hash: Hash,
  guard: OnceGuard,
  read: () => Promise<E[]>,
  emit: (event: E) => void,
): Promise<number> {
  const key = hash.toLowerCase();
  if (!(await guard.claim(key))) return 0;
  try {
    const events = await read();
    if (events.length === 0) await guard.release(key);
    for (const event of events) emit(event);
    return events.length;
  } catch (error) {
    await guard.release(key);
    throw error;
  }
}

/** Emits the purchase in `hash` once, when the chain shows `buyer` bought boxes in it. */
export async function emitBoxPurchaseOnce(hash: Hash, buyer: string, deps: PurchaseDeps = liveDeps): Promise<boolean> {
  const read = async () => {
    const purchase = await deps.read(hash);
    return purchase && sameAddress(purchase.buyer, buyer) ? [boxPurchaseEvent(purchase)] : [];
  };
  return (await emitOncePerTransaction(hash, deps.guard, read, deps.emit)) > 0;
}

export interface OpenDeps {
  /** The box ids `owner` opened in the mined transaction `hash`; none for a failed or unknown one. */
  read(hash: Hash, owner: string): Promise<string[]>;
  emit(event: SelectContentEvent): void;
  guard: OnceGuard;
}

async function readBoxOpens(hash: Hash, owner: string): Promise<string[]> {
  const receipt = await readReceipt(hash);
  if (!receipt || receipt.status !== "success") return [];
  return openedBoxesFromLogs(receipt.logs, publicChainConfig().contracts.opener, owner);
}

const openDeps: OpenDeps = { read: readBoxOpens, emit: emitAnalytics, guard: liveGuard("open") };

/** A `select_content` for each box `owner` opened in `hash`, as the executor reports a managed wallet's, once per transaction. */
export async function emitBoxOpensOnce(hash: Hash, owner: string, deps: OpenDeps = openDeps): Promise<number> {
  const read = async () =>
    (await deps.read(hash, owner)).map((item_id): SelectContentEvent => ({ event: "select_content", content_type: "loot_box", item_id }));
  return emitOncePerTransaction(hash, deps.guard, read, deps.emit);
}
