import { type Address, encodeAbiParameters, encodeEventTopics, type Hash, type Log, zeroAddress } from "viem";
import { describe, expect, it, vi } from "vitest";
import { blindBoxSaleAbi } from "../../contracts/generated/abi";
import { boxPurchaseFromLogs } from "../../contracts/lootbox-events";
import { boxPurchaseEvent as purchaseEvent, type BoxPurchase, type PurchaseEvent } from "~core/analytics";
import {
  emitBoxOpensOnce,
  emitBoxPurchaseOnce,
  onceEach,
  type OpenDeps,
  type PurchaseDeps,
} from "~/features/lootbox/lootbox-analytics.server";

const CONTRACTS = {
  boxSale: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  usdt: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  quark: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
} as const;
const BUYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const TX = `0x${"Ab".repeat(32)}` as Hash;
const ether = (n: bigint) => n * 10n ** 18n;

/** A BoxesPurchased log as the sale (or an impostor at `address`) emits it. */
function purchasedLog({
  address = CONTRACTS.boxSale,
  token = CONTRACTS.usdt,
  boxType = 4n,
  quantity = 2n,
  amountPaid = ether(20n),
}: { address?: Address; token?: Address; boxType?: bigint; quantity?: bigint; amountPaid?: bigint } = {}): Log {
  return {
    address,
    topics: encodeEventTopics({ abi: blindBoxSaleAbi, eventName: "BoxesPurchased", args: { buyer: BUYER, boxType, token } }),
    data: encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [quantity, amountPaid]),
    blockHash: null,
    blockNumber: null,
    logIndex: null,
    transactionHash: null,
    transactionIndex: null,
    removed: false,
  } as unknown as Log;
}

const PURCHASE: BoxPurchase = { txHash: TX.toLowerCase(), buyer: BUYER, typeBox: 4, quantity: 2, currency: "USDT", amountPaid: ether(20n) };

describe("boxPurchaseFromLogs", () => {
  it("reads the sale's BoxesPurchased event: buyer, type, quantity, currency and amount", () => {
    expect(boxPurchaseFromLogs(TX, [purchasedLog()], CONTRACTS)).toEqual(PURCHASE);
    expect(boxPurchaseFromLogs(TX, [purchasedLog({ token: zeroAddress, amountPaid: 6n * 10n ** 16n })], CONTRACTS)).toMatchObject({
      currency: "BNB",
      amountPaid: 6n * 10n ** 16n,
    });
    expect(boxPurchaseFromLogs(TX, [purchasedLog({ token: CONTRACTS.quark, boxType: 18n, quantity: 1n })], CONTRACTS)).toMatchObject({
      currency: "QUARK",
      typeBox: 18,
      quantity: 1,
    });
  });

  it("ignores the same event from any other contract, and a token that is not ours", () => {
    expect(boxPurchaseFromLogs(TX, [purchasedLog({ address: OTHER })], CONTRACTS)).toBeNull();
    expect(boxPurchaseFromLogs(TX, [purchasedLog({ token: OTHER })], CONTRACTS)).toBeNull();
    expect(boxPurchaseFromLogs(TX, [], CONTRACTS)).toBeNull();
  });
});

describe("purchaseEvent", () => {
  it("is the analytics purchase: the total paid, the transaction, and the boxes at their unit price", () => {
    expect(purchaseEvent(PURCHASE)).toEqual({
      event: "purchase",
      value: "20",
      currency: "USDT",
      transaction_id: TX.toLowerCase(),
      items: [{ item_id: "lootbox-4", item_name: "Standard loot box", item_category: "Loot box", price: "10", quantity: 2 }],
    });
  });
});

describe("onceEach", () => {
  it("claims a key once, again after a release, and forgets the oldest past its limit", () => {
    const guard = onceEach(2);
    expect([guard.claim("a"), guard.claim("a")]).toEqual([true, false]);
    guard.release("a");
    expect(guard.claim("a")).toBe(true);
    guard.claim("b");
    guard.claim("c");
    expect(guard.claim("a")).toBe(true);
    expect(guard.claim("c")).toBe(false);
  });
});

describe("emitBoxPurchaseOnce", () => {
  const deps = (read: PurchaseDeps["read"]) => {
    const emitted: PurchaseEvent[] = [];
    return { emitted, deps: { read: vi.fn(read), emit: (event: PurchaseEvent) => void emitted.push(event), guard: onceEach() } };
  };

  it("emits a purchase once however many loaders see it at once, whatever the hash's case", async () => {
    const { emitted, deps: d } = deps(async () => PURCHASE);
    const results = await Promise.all([
      emitBoxPurchaseOnce(TX, BUYER, d),
      emitBoxPurchaseOnce(TX.toLowerCase() as Hash, BUYER, d),
      emitBoxPurchaseOnce(TX, BUYER.toLowerCase(), d),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(emitted).toEqual([purchaseEvent(PURCHASE)]);
    expect(d.read).toHaveBeenCalledTimes(1);
  });

  it("emits nothing for someone else's purchase or a transaction that bought nothing, and may look again later", async () => {
    const { emitted, deps: d } = deps(async () => PURCHASE);
    expect(await emitBoxPurchaseOnce(TX, OTHER, d)).toBe(false);
    d.read.mockResolvedValueOnce(null);
    expect(await emitBoxPurchaseOnce(TX, BUYER, d)).toBe(false);
    expect(emitted).toEqual([]);
    expect(await emitBoxPurchaseOnce(TX, BUYER, d)).toBe(true);
  });

  it("releases the hash when the chain cannot be read, so a later look emits it", async () => {
    const { emitted, deps: d } = deps(async () => {
      throw new Error("node down");
    });
    await expect(emitBoxPurchaseOnce(TX, BUYER, d)).rejects.toThrow("node down");
    d.read.mockResolvedValueOnce(PURCHASE);
    expect(await emitBoxPurchaseOnce(TX, BUYER, d)).toBe(true);
    expect(emitted).toHaveLength(1);
  });
});

describe("emitBoxOpensOnce", () => {
  function openDeps(read: OpenDeps["read"]) {
    const emitted: unknown[] = [];
    const d = { read: vi.fn(read), emit: (event: unknown) => void emitted.push(event), guard: onceEach() };
    return { emitted, deps: d as OpenDeps & { read: typeof d.read } };
  }

  it("sends select_content for each box the wallet opened in the transaction, once however often it is reported", async () => {
    const { emitted, deps: d } = openDeps(async () => ["5", "6"]);
    expect(await Promise.all([emitBoxOpensOnce(TX, BUYER, d), emitBoxOpensOnce(TX.toLowerCase() as Hash, BUYER, d)])).toEqual([2, 0]);
    expect(emitted).toEqual([
      { event: "select_content", content_type: "loot_box", item_id: "5" },
      { event: "select_content", content_type: "loot_box", item_id: "6" },
    ]);
    expect(d.read).toHaveBeenCalledWith(TX, BUYER);
  });

  it("sends nothing for a transaction that opened none of the wallet's boxes, and may look again later", async () => {
    const { emitted, deps: d } = openDeps(async () => []);
    expect(await emitBoxOpensOnce(TX, BUYER, d)).toBe(0);
    d.read.mockResolvedValueOnce(["7"]);
    expect(await emitBoxOpensOnce(TX, BUYER, d)).toBe(1);
    expect(emitted).toHaveLength(1);
  });

  it("releases the hash when the chain cannot be read", async () => {
    const { deps: d } = openDeps(async () => {
      throw new Error("node down");
    });
    await expect(emitBoxOpensOnce(TX, BUYER, d)).rejects.toThrow("node down");
    d.read.mockResolvedValueOnce(["8"]);
    expect(await emitBoxOpensOnce(TX, BUYER, d)).toBe(1);
  });
});
