/**
 * Rate limits shared by every process through Redis (REDIS_URL, decision 0012). Each tier counts in a RedisStore of
 * its own prefix (`rl:general:`, `rl:writes:`, `rl:auth:`), so a client's budget is the same whichever process its
 * request reaches.
 *
 * When Redis fails (down, or slower than REDIS_DEADLINE_MS), a tier neither lets everyone through nor refuses
 * everyone: it counts in this process's own memory, as it does without REDIS_URL, until Redis answers again. The
 * budgets are then per process (N processes allow N times the limit) and the log says so. Failing open would leave
 * the sign-in and code-sending paths unlimited for the outage; failing closed would turn a Redis outage into a site
 * outage. Either way the SSO's own database-backed guards still hold: the sign-in budgets per client and per
 * account (backend/sso/login-guard.ts) and the code cooldown and hourly cap (backend/sso/codes.ts).
 */
import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { withinMs, type RedisClient, type RedisLog } from "../app/services/redis.server";
import type { RateLimitTier } from "./rate-limit";

export { closeSharedRedis, sharedRedis, type RedisClient } from "../app/services/redis.server";

/** A fallback is logged at most this often per process (the client logs the connection's own outage once). */
const FALLBACK_LOG_INTERVAL_MS = 60_000;

/** The key prefix of a tier's counts in Redis. */
export const rateLimitPrefix = (tier: RateLimitTier) => `rl:${tier}:`;

/** For `rateLimits({ store })`: a store per tier, shared through `client`, each falling back to memory on a failure. */
export function redisRateLimitStores(client: RedisClient, log: RedisLog = console): (tier: RateLimitTier) => Store {
  let lastLogged = -Infinity;
  const fellBack = (tier: RateLimitTier, error: unknown) => {
    const now = Date.now();
    if (now - lastLogged < FALLBACK_LOG_INTERVAL_MS) return;
    lastLogged = now;
    log.warn(
      `Rate limits fall back to this process's memory (the ${tier} tier first): Redis failed (${(error as Error).message ?? error}). ` +
        "Budgets are per process until it answers again.",
    );
  };
  return (tier) => {
    const shared = new RedisStore({
      prefix: rateLimitPrefix(tier),
      sendCommand: (...args: string[]) => client.sendCommand(args) as Promise<RedisReply>,
    });
    // The store loads its scripts at once; with Redis down that rejection would go unhandled and end the process.
    // Marked handled here: the store loads them again on its next use.
    shared.incrementScriptSha.catch(() => {});
    shared.getScriptSha.catch(() => {});
    return new SharedOrLocalStore(shared, (error) => fellBack(tier, error));
  };
}

/** `shared` while it answers in time; this process's memory while it does not. */
export class SharedOrLocalStore implements Store {
  readonly prefix: string;
  private readonly local = new MemoryStore();

  constructor(
    private readonly shared: Store & { prefix: string },
    private readonly fellBack: (error: unknown) => void,
  ) {
    this.prefix = shared.prefix;
  }

  init(options: Options): void {
    this.shared.init?.(options);
    this.local.init(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      return await withinMs(Promise.resolve(this.shared.increment(key)));
    } catch (error) {
      this.fellBack(error);
      return this.local.increment(key);
    }
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    try {
      return await withinMs(Promise.resolve(this.shared.get?.(key)));
    } catch {
      return this.local.get(key);
    }
  }

  async decrement(key: string): Promise<void> {
    await Promise.allSettled([withinMs(Promise.resolve(this.shared.decrement(key))), this.local.decrement(key)]);
  }

  async resetKey(key: string): Promise<void> {
    await Promise.allSettled([withinMs(Promise.resolve(this.shared.resetKey(key))), this.local.resetKey(key)]);
  }

  shutdown(): void {
    this.local.shutdown();
  }
}
