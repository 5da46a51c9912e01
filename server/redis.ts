/**
 * Rate limits shared by every process through Redis (REDIS_URL, decision 0012). Each tier counts in a RedisStore of
 * its own prefix (`rl:general:`, `rl:writes:`, `rl:auth:`), so a client's budget is the same whichever process its
 * request reaches.
 *
 * When Redis fails (down, or slower than REDIS_DEADLINE_MS), the general and writes tiers count in this process's
 * own memory, as they do without REDIS_URL, until Redis answers again: budgets per process, and the log says so.
 * The auth tier does not (decision 0030): a count per process is N budgets for a password guesser, so it waits
 * longer (AUTH_REDIS_DEADLINE_MS) and, with no answer still, refuses the attempt with a 503 rather than guess.
 */
import { MemoryStore, type ClientRateLimitInfo, type Options, type Store } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { REDIS_DEADLINE_MS, withinMs, type RedisClient, type RedisLog } from "../app/services/redis.server";
import { SharedBudgetUnavailable, type RateLimitTier } from "./rate-limit";

export { closeSharedRedis, sharedRedis, type RedisClient } from "../app/services/redis.server";

/** A fallback is logged at most this often per process (the client logs the connection's own outage once). */
const FALLBACK_LOG_INTERVAL_MS = 60_000;

/** How long a sign-in waits for Redis: a person signing in can wait, and a busy Redis often answers within this. */
export const AUTH_REDIS_DEADLINE_MS = 3_000;

/** What a tier does when its shared count fails: count in this process's memory, or refuse the request. */
export interface SharedStorePolicy {
  deadlineMs: number;
  onFailure: "local" | "refuse";
}

const POLICIES: Record<RateLimitTier, SharedStorePolicy> = {
  general: { deadlineMs: REDIS_DEADLINE_MS, onFailure: "local" },
  writes: { deadlineMs: REDIS_DEADLINE_MS, onFailure: "local" },
  lookups: { deadlineMs: REDIS_DEADLINE_MS, onFailure: "local" },
  auth: { deadlineMs: AUTH_REDIS_DEADLINE_MS, onFailure: "refuse" },
};

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
      POLICIES[tier].onFailure === "refuse"
        ? `Sign-in attempts are refused (503): the shared count in Redis failed (${(error as Error).message ?? error}).`
        : `Rate limits fall back to this process's memory (the ${tier} tier first): Redis failed (${(error as Error).message ?? error}). ` +
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
    return new SharedOrLocalStore(shared, (error) => fellBack(tier, error), POLICIES[tier]);
  };
}

/** `shared` while it answers in time; when it does not, this process's memory, or a refusal (`policy.onFailure`). */
export class SharedOrLocalStore implements Store {
  readonly prefix: string;
  private readonly local = new MemoryStore();

  constructor(
    private readonly shared: Store & { prefix: string },
    private readonly fellBack: (error: unknown) => void,
    private readonly policy: SharedStorePolicy = POLICIES.general,
  ) {
    this.prefix = shared.prefix;
  }

  init(options: Options): void {
    this.shared.init?.(options);
    this.local.init(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      return await withinMs(Promise.resolve(this.shared.increment(key)), this.policy.deadlineMs);
    } catch (error) {
      this.fellBack(error);
      if (this.policy.onFailure === "refuse") throw new SharedBudgetUnavailable(error);
      return this.local.increment(key);
    }
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    try {
      return await withinMs(Promise.resolve(this.shared.get?.(key)), this.policy.deadlineMs);
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
