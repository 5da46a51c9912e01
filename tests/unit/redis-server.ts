import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { RedisClient } from "~/services/redis.server";
import { startRedis as startRedisServer } from "../../scripts/cluster/processes";
import { freePort } from "../support/ports";

/** Debian's redis-server (apt-get install redis-server): the suites that need one skip, saying why, without it. */
export const REDIS_SERVER = "/usr/bin/redis-server";
export const hasRedisServer = fs.existsSync(REDIS_SERVER);
export const NO_REDIS_SERVER = `${REDIS_SERVER} is missing (apt-get install redis-server)`;

export interface ThrowawayRedis {
  url: string;
  stop(): Promise<void>;
}

/**
 * A throwaway redis-server on a free loopback port (or `port`, to start one again where another stopped), keeping
 * nothing on disk; resolves once it answers PING. The cluster launcher's own (scripts/cluster/processes.ts).
 */
export async function startRedis(port?: number): Promise<ThrowawayRedis> {
  port ??= await freePort();
  return startRedisServer(port, path.join(os.tmpdir(), `spark-redis-${port}.log`));
}

/** A loopback URL where nothing listens: a Redis that is down. */
export async function deadRedisUrl(): Promise<string> {
  return `redis://127.0.0.1:${await freePort()}`;
}

/**
 * A throwaway redis-server for the tests of the describe block this is called in (`started` takes it), emptied
 * through `client` before each test.
 */
export function setUpRedis(started: (redis: ThrowawayRedis) => void, client: () => Promise<RedisClient>): void {
  let redis: ThrowawayRedis | undefined;
  beforeAll(async () => started((redis = await startRedis())));
  afterAll(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    await (await client()).flushAll();
  });
}
