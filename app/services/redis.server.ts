/**
 * The one Redis client of a process (REDIS_URL, decision 0012): shared rate limits (server/redis.ts) and the analytics
 * once-per-transaction memory (features/lootbox/lootbox-analytics.server.ts) use it. Made on first use; it connects in
 * the background and reconnects for ever. While it is down every command fails at once (no offline queue), so each
 * caller falls back to its own per-process memory rather than wait; an outage is logged once, and its end too.
 */
import { createClient } from "redis";
import { getEnv } from "./env.server";

export type RedisClient = ReturnType<typeof createClient>;
export type RedisLog = Pick<Console, "info" | "warn">;

/** A reply slower than this counts as a failure: the caller falls back rather than hold a request up. */
export const REDIS_DEADLINE_MS = 500;

/** The URL without its password, for the log. */
export function redactedRedisUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

/** A client of `url`, connecting in the background; errors are logged (once per outage), never thrown at the process. */
export function connectRedis(url: string, log: RedisLog = console): RedisClient {
  const where = redactedRedisUrl(url);
  const client = createClient({
    url,
    // Commands fail at once while the connection is down, instead of queueing until it is back.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5_000) },
  });
  let down = false;
  let connected = false;
  // Without an 'error' listener node-redis's errors would crash the process.
  client.on("error", (error: Error) => {
    if (down) return;
    down = true;
    log.warn(`Redis at ${where} is unreachable (${error.message}): rate limits and the analytics memory are per process until it is back`);
  });
  client.on("ready", () => {
    if (!connected) log.info(`Redis at ${where}: rate limits and the analytics memory are shared by every process using it`);
    else if (down) log.info(`Redis at ${where} is reachable again: rate limits are shared again`);
    connected = true;
    down = false;
  });
  // Resolves once connected, however long that takes; rejects only when the client is closed first.
  client.connect().catch(() => {});
  return client;
}

// server.ts and the Remix build each load their own copy of this module: one client for both, keyed globally.
const KEY = Symbol.for("spark-era.redis");
const holder = globalThis as typeof globalThis & { [KEY]?: RedisClient };

/** This process's client of REDIS_URL, made on first call (its `log` is the first caller's); undefined without REDIS_URL. */
export function sharedRedis(url: string | undefined = getEnv().REDIS_URL, log: RedisLog = console): RedisClient | undefined {
  if (!url) return undefined;
  return (holder[KEY] ??= connectRedis(url, log));
}

/** Closes the shared client, if one was made (on shutdown, after the server stopped taking requests). */
export function closeSharedRedis(): void {
  const client = holder[KEY];
  holder[KEY] = undefined;
  // destroy, not close: close waits for replies that an unreachable Redis never sends.
  if (client?.isOpen) client.destroy();
}

/** `promise`, or a rejection once `ms` have passed without it settling. */
export function withinMs<T>(promise: Promise<T>, ms: number = REDIS_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
