import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
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
 * nothing on disk; resolves once it accepts connections.
 */
export async function startRedis(port?: number): Promise<ThrowawayRedis> {
  port ??= await freePort();
  const child = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", os.tmpdir()],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 10 s:\n${output}`)), 10_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A loopback URL where nothing listens: a Redis that is down. */
export async function deadRedisUrl(): Promise<string> {
  return `redis://127.0.0.1:${await freePort()}`;
}
