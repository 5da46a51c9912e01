/**
 * The analytics once-per-transaction memory shared through Redis (issue 27, decision 0012): two guards, as two
 * server processes have them, each with its own client of one throwaway redis-server.
 */
import type { Hash } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { boxPurchaseEvent, type BoxPurchase, type PurchaseEvent } from "~core/analytics";
import {
  emitBoxPurchaseOnce,
  SHARED_ONCE_TTL_SECONDS,
  sharedOnceEach,
  type PurchaseDeps,
} from "~/features/lootbox/lootbox-analytics.server";
import { connectRedis, type RedisClient } from "~/services/redis.server";
import { deadRedisUrl, hasRedisServer, NO_REDIS_SERVER, setUpRedis, type ThrowawayRedis } from "./redis-server";

const TX = `0x${"Ab".repeat(32)}` as Hash;
const BUYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const PURCHASE: BoxPurchase = {
  txHash: TX.toLowerCase(),
  buyer: BUYER,
  typeBox: 4,
  quantity: 2,
  currency: "USDT",
  amountPaid: 20n * 10n ** 18n,
};
const PREFIX = "analytics:purchase:";

let redis: ThrowawayRedis;
const clients: RedisClient[] = [];

async function client(url = redis.url): Promise<RedisClient> {
  const made = connectRedis(url, { info: vi.fn(), warn: vi.fn() });
  clients.push(made);
  if (url === redis?.url) await new Promise<void>((resolve) => (made.isReady ? resolve() : made.once("ready", () => resolve())));
  return made;
}

/** One process's purchase deps: its own guard on its own client, a shared list of what every process emitted. */
function processDeps(redisClient: RedisClient, emitted: PurchaseEvent[], read: PurchaseDeps["read"]) {
  return {
    read: vi.fn(read),
    emit: (event: PurchaseEvent) => void emitted.push(event),
    guard: sharedOnceEach(redisClient, { prefix: PREFIX }),
  };
}

afterEach(() => {
  for (const made of clients.splice(0)) if (made.isOpen) made.destroy();
});

describe("the once-per-transaction memory without a reachable Redis (no redis-server needed)", () => {
  it("falls back to this process's memory while Redis is unreachable, and says so", async () => {
    const warn = vi.fn();
    const guard = sharedOnceEach(await client(await deadRedisUrl()), { prefix: PREFIX, warn });
    expect(await guard.claim("k")).toBe(true);
    expect(await guard.claim("k")).toBe(false);
    await guard.release("k");
    expect(await guard.claim("k")).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("claimed in this process only"), expect.any(Error));
  });
});

describe.skipIf(!hasRedisServer)(
  `the once-per-transaction memory in Redis${hasRedisServer ? "" : ` (skipped: ${NO_REDIS_SERVER})`}`,
  () => {
    setUpRedis(
      (started) => (redis = started),
      () => client(),
    );

    it("claims a key once across processes with SET NX EX, and again after a release (DEL)", async () => {
      const a = sharedOnceEach(await client(), { prefix: PREFIX });
      const b = sharedOnceEach(await client(), { prefix: PREFIX });
      expect(await Promise.all([a.claim("k"), b.claim("k"), a.claim("k")])).toEqual([true, false, false]);
      const inspect = await client();
      expect(await inspect.get(`${PREFIX}k`)).toBe("1");
      const ttl = await inspect.ttl(`${PREFIX}k`);
      expect(ttl).toBeGreaterThan(SHARED_ONCE_TTL_SECONDS - 10);
      expect(ttl).toBeLessThanOrEqual(SHARED_ONCE_TTL_SECONDS);
      await a.release("k");
      expect(await inspect.exists(`${PREFIX}k`)).toBe(0);
      expect(await b.claim("k")).toBe(true);
    });

    it("emits a purchase once however many processes see it at once", async () => {
      const emitted: PurchaseEvent[] = [];
      const processes = [
        processDeps(await client(), emitted, async () => PURCHASE),
        processDeps(await client(), emitted, async () => PURCHASE),
      ];
      const results = await Promise.all(
        processes.flatMap((deps) => [emitBoxPurchaseOnce(TX, BUYER, deps), emitBoxPurchaseOnce(TX, BUYER, deps)]),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(emitted).toEqual([boxPurchaseEvent(PURCHASE)]);
      expect(processes[0].read.mock.calls.length + processes[1].read.mock.calls.length).toBe(1);
    });

    it("releases the hash when a process cannot read the chain or finds nothing, so another process emits it later", async () => {
      const emitted: PurchaseEvent[] = [];
      const a = processDeps(await client(), emitted, async () => {
        throw new Error("node down");
      });
      const b = processDeps(await client(), emitted, async () => null);
      await expect(emitBoxPurchaseOnce(TX, BUYER, a)).rejects.toThrow("node down");
      expect(await emitBoxPurchaseOnce(TX, BUYER, b)).toBe(false);
      b.read.mockResolvedValueOnce(PURCHASE);
      expect(await emitBoxPurchaseOnce(TX, BUYER, b)).toBe(true);
      expect(await emitBoxPurchaseOnce(TX, BUYER, a)).toBe(false);
      expect(emitted).toHaveLength(1);
    });
  },
);
