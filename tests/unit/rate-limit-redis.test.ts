/**
 * Rate limits shared through Redis (issue 27, decision 0012): two `rateLimits` middlewares, as two server processes
 * have them, each with its own client of one throwaway redis-server.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from "express-rate-limit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectRedis, type RedisClient } from "~/services/redis.server";
import { AUTH_UNAVAILABLE, rateLimits, type RateLimitTier } from "../../server/rate-limit";
import { AUTH_REDIS_DEADLINE_MS, redisRateLimitStores, SharedOrLocalStore, type SharedStorePolicy } from "../../server/redis";
import { deadRedisUrl, hasRedisServer, NO_REDIS_SERVER, setUpRedis, startRedis, type ThrowawayRedis } from "./redis-server";

const quiet = () => ({ info: vi.fn(), warn: vi.fn() });

let redis: ThrowawayRedis;
const clients: RedisClient[] = [];
const servers: Server[] = [];

/** Once `client` is connected. */
const ready = (made: RedisClient) => new Promise<void>((resolve) => (made.isReady ? resolve() : made.once("ready", () => resolve())));

/** A client as a process makes it; ready to use unless `url` is down. */
async function client(url = redis.url, log = quiet()): Promise<RedisClient> {
  const made = connectRedis(url, log);
  clients.push(made);
  if (url === redis?.url) await ready(made);
  return made;
}

/** One "process": the rate limits in front of a handler that answers ok; its base URL. */
async function serve(store?: (tier: RateLimitTier) => Store): Promise<string> {
  const app = express();
  app.use(rateLimits({ apiPaths: ["/basic", "/sso", "/api/v1"], internalToken: "internal-test-token", store }));
  app.all("*", (_req, res) => {
    res.send("ok");
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = async (baseUrl: string, path: string) => (await fetch(baseUrl + path, { method: "POST" })).status;
const get = async (baseUrl: string, path: string) => (await fetch(baseUrl + path)).status;

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  for (const made of clients.splice(0)) if (made.isOpen) made.destroy();
});

describe("rate limits without a reachable Redis (no redis-server needed)", () => {
  it("without Redis, each process keeps its own budget", async () => {
    const a = await serve();
    const b = await serve();
    for (let i = 0; i < 10; i++) expect(await post(a, "/login")).toBe(200);
    expect(await post(a, "/login")).toBe(429);
    expect(await post(b, "/login")).toBe(200);
  });

  it("while Redis is unreachable, the sign-in tier refuses at once (503) and the other tiers count per process, each process saying so once", async () => {
    const log = quiet();
    const down = await client(await deadRedisUrl(), log);
    const a = await serve(redisRateLimitStores(down, log));
    const b = await serve(redisRateLimitStores(down, log));
    const started = Date.now();
    const refused = await fetch(`${a}/basic/login`, { method: "POST" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.json()).toMatchObject({ code: 503, msg: AUTH_UNAVAILABLE });
    expect(await post(b, "/login")).toBe(503);
    for (let i = 0; i < 100; i++) expect(await post(a, "/marketplace/detail")).toBe(200);
    expect(await post(a, "/marketplace/detail")).toBe(429);
    // Per process now: the other one has its own budget.
    expect(await post(b, "/marketplace/detail")).toBe(200);
    expect(Date.now() - started).toBeLessThan(AUTH_REDIS_DEADLINE_MS);
    const said = log.warn.mock.calls.map(([message]) => String(message));
    expect(said.filter((message) => message.startsWith("Sign-in attempts are refused")).length).toBeGreaterThan(0);
    expect(said.filter((message) => /^(Sign-in attempts are refused|Rate limits fall back)/.test(message))).toHaveLength(2);
  });
});

/** A shared count as slow as a loaded Redis: every answer `delayMs` late, or never. */
class SlowSharedStore implements Store {
  readonly prefix = "rl:auth:";
  private readonly counts = new MemoryStore();
  constructor(private readonly delayMs: number | null) {}
  init(options: Options) {
    this.counts.init(options);
  }
  private later<T>(value: () => Promise<T>): Promise<T> {
    if (this.delayMs === null) return new Promise<T>(() => {});
    return new Promise<T>((resolve) => setTimeout(() => resolve(value()), this.delayMs!));
  }
  increment(key: string): Promise<ClientRateLimitInfo> {
    return this.later(() => this.counts.increment(key));
  }
  decrement(key: string) {
    return this.later(() => this.counts.decrement(key));
  }
  resetKey(key: string) {
    return this.later(() => this.counts.resetKey(key));
  }
}

describe("the sign-in budget under a slow shared count (issue 43)", () => {
  /** Three processes whose auth tier counts in one shared store; their other tiers in memory. */
  async function cluster(shared: Store & { prefix: string }, auth: SharedStorePolicy) {
    return Promise.all(
      [0, 1, 2].map(() => serve((tier) => (tier === "auth" ? new SharedOrLocalStore(shared, () => {}, auth) : new MemoryStore()))),
    );
  }

  it("60 attempts at once over three processes, with the count answering in 800 ms: 10 through, the rest refused", async () => {
    // Slower than the other tiers' 500 ms deadline, within the sign-in tier's.
    const list = await cluster(new SlowSharedStore(800), { deadlineMs: AUTH_REDIS_DEADLINE_MS, onFailure: "refuse" });
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => post(list[i % 3], "/login")));
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
  });

  it("with the count not answering at all, every attempt is refused with the words, none let through", async () => {
    const list = await cluster(new SlowSharedStore(null), { deadlineMs: 200, onFailure: "refuse" });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => fetch(`${list[i % 3]}/login`, { method: "POST" })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(503));
    expect(await answers[0].text()).toContain(AUTH_UNAVAILABLE);
  });
});

describe.skipIf(!hasRedisServer)(`rate limits shared through Redis${hasRedisServer ? "" : ` (skipped: ${NO_REDIS_SERVER})`}`, () => {
  setUpRedis(
    (started) => (redis = started),
    () => client(),
  );

  it("refuses the sign-in tier's 11th attempt whichever process it reaches", async () => {
    const a = await serve(redisRateLimitStores(await client()));
    const b = await serve(redisRateLimitStores(await client()));
    for (let i = 0; i < 10; i++) expect(await post(i % 2 ? a : b, "/login")).toBe(200);
    expect(await post(a, "/login")).toBe(429);
    expect(await post(b, "/basic/login")).toBe(429);
    // The other tiers keep their own budgets.
    expect(await post(a, "/marketplace/detail")).toBe(200);
    expect(await get(b, "/home")).toBe(200);
  });

  it("counts each tier under its own prefix, with the window's expiry", async () => {
    const redisClient = await client();
    const a = await serve(redisRateLimitStores(redisClient));
    await post(a, "/login");
    await post(a, "/marketplace/detail");
    await get(a, "/home");
    expect((await redisClient.keys("rl:*")).sort()).toEqual(["rl:auth:127.0.0.1", "rl:general:127.0.0.1", "rl:writes:127.0.0.1"]);
    const ttl = await redisClient.pTTL("rl:auth:127.0.0.1");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("refuses sign-ins when Redis stops mid-run, and shares the budget again once it is back", async () => {
    const log = quiet();
    const first = await startRedis();
    const made = connectRedis(first.url, log);
    clients.push(made);
    await ready(made);
    const a = await serve(redisRateLimitStores(made, log));
    expect(await post(a, "/login")).toBe(200);
    await first.stop();
    // Down: a sign-in is refused at once, not held up; a write is counted in memory.
    const started = Date.now();
    expect(await post(a, "/login")).toBe(503);
    expect(Date.now() - started).toBeLessThan(AUTH_REDIS_DEADLINE_MS);
    expect(await post(a, "/marketplace/detail")).toBe(200);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining("is unreachable"));
    // Back (an empty Redis on the same port): the client reconnects by itself and the counts go to Redis again.
    const again = await startRedis(Number(new URL(first.url).port));
    try {
      await ready(made);
      expect(log.info).toHaveBeenCalledWith(expect.stringContaining("reachable again"));
      expect(await post(a, "/login")).toBe(200);
      expect(await made.get("rl:auth:127.0.0.1")).toBe("1");
    } finally {
      await again.stop();
    }
  });
});
