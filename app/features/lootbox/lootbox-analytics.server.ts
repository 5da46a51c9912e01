/**
 * The `purchase` analytics event of a loot box purchase (issue 12), for both paths: the managed wallet's status
 * page when it first sees a mined purchase, and the browser-wallet island after its purchase is confirmed. Also the
 * `select_content` of the boxes a browser wallet opens (issue 23; a managed wallet's opens are reported by its form).
 * Nothing the browser says is trusted: the event is built from the sale's BoxesPurchased event in the
 * transaction's receipt, read from the chain, and only for the wallet the session is bound to. Each transaction
 * is emitted once per server process (a restart may emit a purchase seen again; the sink keys on transaction_id).
 */
import { parseEventLogs, type Hash, type Log } from "viem";
import { blindBoxOpenerAbi, blindBoxSaleAbi } from "../../../contracts/generated/abi";
import { sameAddress } from "~core/address";
import { boxTitle, type PaymentCurrency } from "~core/boxes";
import { formatWei } from "~core/money";
import { emitAnalytics, type PurchaseEvent, type SelectContentEvent } from "~/services/analytics.server";
import { publicChainConfig, readReceipt, type PublicChainConfig } from "~/services/chain.server";

export interface BoxPurchase {
  txHash: string;
  buyer: string;
  typeBox: number;
  quantity: number;
  currency: PaymentCurrency;
  /** What the sale took for all the boxes, in wei. */
  amountPaid: bigint;
}

type SaleContracts = Pick<PublicChainConfig["contracts"], "boxSale" | "usdt" | "quark">;

/** The sale's currency for the token its event names: the zero address is BNB; any other token is none of ours. */
function currencyOf(token: string, contracts: SaleContracts): PaymentCurrency | null {
  if (/^0x0{40}$/i.test(token)) return "BNB";
  if (sameAddress(token, contracts.usdt)) return "USDT";
  if (sameAddress(token, contracts.quark)) return "QUARK";
  return null;
}

/** The purchase a receipt's logs record: our sale's first BoxesPurchased event, else null. */
export function boxPurchaseFromLogs(txHash: string, logs: readonly Log[], contracts: SaleContracts): BoxPurchase | null {
  const events = parseEventLogs({ abi: blindBoxSaleAbi, eventName: "BoxesPurchased", logs: logs as Log[] }).filter((log) =>
    sameAddress(log.address, contracts.boxSale),
  );
  for (const { args } of events) {
    const currency = currencyOf(args.token, contracts);
    if (!currency || args.quantity === 0n) continue;
    return {
      txHash: txHash.toLowerCase(),
      buyer: args.buyer,
      typeBox: Number(args.boxType),
      quantity: Number(args.quantity),
      currency,
      amountPaid: args.amountPaid,
    };
  }
  return null;
}

/** The event of PurchaseEvent's shape: the total paid, and the boxes as one line at their unit price. */
export function purchaseEvent(purchase: BoxPurchase): PurchaseEvent {
  return {
    event: "purchase",
    value: formatWei(purchase.amountPaid),
    currency: purchase.currency,
    transaction_id: purchase.txHash,
    items: [
      {
        item_id: `lootbox-${purchase.typeBox}`,
        item_name: boxTitle(purchase.typeBox),
        item_category: "Loot box",
        price: formatWei(purchase.amountPaid / BigInt(purchase.quantity)),
        quantity: purchase.quantity,
      },
    ],
  };
}

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
    return purchase && sameAddress(purchase.buyer, buyer) ? [purchaseEvent(purchase)] : [];
  };
  return (await emitOncePerTransaction(hash, deps.guard, read, deps.emit)) > 0;
}

/** The ids of the boxes `owner` opened, from our opener's BoxOpened events in a receipt's logs. */
export function openedBoxesFromLogs(logs: readonly Log[], opener: string, owner: string): string[] {
  return parseEventLogs({ abi: blindBoxOpenerAbi, eventName: "BoxOpened", logs: logs as Log[] })
    .filter((log) => sameAddress(log.address, opener) && sameAddress(log.args.owner, owner))
    .map((log) => log.args.boxId.toString());
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

/** A `select_content` for each box `owner` opened in `hash`, as the managed wallet's open form sends them, once per transaction. */
export async function emitBoxOpensOnce(hash: Hash, owner: string, deps: OpenDeps = openDeps): Promise<number> {
  const read = async () =>
    (await deps.read(hash, owner)).map((item_id): SelectContentEvent => ({ event: "select_content", content_type: "loot_box", item_id }));
  return emitOncePerTransaction(hash, deps.guard, read, deps.emit);
}
