/**
 * The `purchase` analytics event of a browser wallet's loot box purchase (issue 12), reported by its island once
 * confirmed, and the `select_content` of the boxes it opens (issue 23). A managed wallet's are the executor's to
 * report (decision 0009). Nothing the browser says is trusted: the event is built from the sale's BoxesPurchased
 * event in the transaction's receipt, read from the chain, and only for the wallet the session is bound to. Each
 * transaction is emitted once per server process (a restart may emit a purchase seen again; the sink keys on
 * transaction_id).
 */
import type { Hash } from "viem";
import { boxPurchaseFromLogs, openedBoxesFromLogs } from "../../../contracts/lootbox-events";
import { sameAddress } from "~core/address";
import { boxPurchaseEvent, type BoxPurchase, type PurchaseEvent, type SelectContentEvent } from "~core/analytics";
import { emitAnalytics } from "~/services/analytics.server";
import { publicChainConfig, readReceipt } from "~/services/chain.server";

/** Remembers the last `limit` keys: `claim` is true the first time a key is claimed, and again after `release`. */
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

const emitted = onceEach();

export interface PurchaseDeps {
  read(hash: Hash): Promise<BoxPurchase | null>;
  emit(event: PurchaseEvent): void;
  guard: ReturnType<typeof onceEach>;
}

async function readBoxPurchase(hash: Hash): Promise<BoxPurchase | null> {
  const receipt = await readReceipt(hash);
  if (!receipt || receipt.status !== "success") return null;
  return boxPurchaseFromLogs(hash, receipt.logs, publicChainConfig().contracts);
}

const liveDeps: PurchaseDeps = { read: readBoxPurchase, emit: emitAnalytics, guard: emitted };

/**
 * Emits the events `read` finds in transaction `hash`, once. The hash is claimed before the chain is read, so two
 * requests racing on it emit once; a failed read, or one that finds nothing to emit, releases it. The count emitted.
 */
async function emitOncePerTransaction<E>(
  hash: Hash,
  guard: ReturnType<typeof onceEach>,
  read: () => Promise<E[]>,
  emit: (event: E) => void,
): Promise<number> {
  const key = hash.toLowerCase();
  if (!guard.claim(key)) return 0;
  try {
    const events = await read();
    if (events.length === 0) guard.release(key);
    for (const event of events) emit(event);
    return events.length;
  } catch (error) {
    guard.release(key);
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
  guard: ReturnType<typeof onceEach>;
}

async function readBoxOpens(hash: Hash, owner: string): Promise<string[]> {
  const receipt = await readReceipt(hash);
  if (!receipt || receipt.status !== "success") return [];
  return openedBoxesFromLogs(receipt.logs, publicChainConfig().contracts.opener, owner);
}

const openDeps: OpenDeps = { read: readBoxOpens, emit: emitAnalytics, guard: onceEach() };

/** A `select_content` for each box `owner` opened in `hash`, as the executor reports a managed wallet's, once per transaction. */
export async function emitBoxOpensOnce(hash: Hash, owner: string, deps: OpenDeps = openDeps): Promise<number> {
  const read = async () =>
    (await deps.read(hash, owner)).map((item_id): SelectContentEvent => ({ event: "select_content", content_type: "loot_box", item_id }));
  return emitOncePerTransaction(hash, deps.guard, read, deps.emit);
}
