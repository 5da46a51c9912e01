/**
 * One site served by N server processes (issue 27): PostgreSQL (DATABASE_URL, else a cluster of our own), Redis
 * (REDIS_URL, else a redis-server of our own), one anvil with our contracts, N `server.ts` processes on ports of
 * their own sharing all of them and every secret, and a round-robin reverse proxy in front (proxy.ts); with
 * `sharedCache`, nginx's proxy_cache in front of that (nginx.ts, issue 44).
 *
 * The one implementation behind `npm run cluster` (main.ts) and the multi-process tests (tests/multi/), which also
 * kill a server with SIGKILL and start its replacement on the same port.
 *
 * Needs the production build (`npm run build`: build/ and public/build/).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startLocalChain, type LocalChain } from "../../contracts/chain";
import { alignMetadataBase, metadataBaseUris } from "../../contracts/metadata-base";
import { startPostgresCluster } from "../../tests/support/postgres";
import { startSharedCache } from "./nginx";
import { exitedAlready, healthy, startRedis, stopChild, tail, waitFor, watchdog } from "./processes";
import { startProxy, type Proxy } from "./proxy";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The background roles of issue 27: each runs in one process at a time, which says so in its /metrics. */
export const ROLES = ["executor", "indexer", "delivery"] as const;
export type Role = (typeof ROLES)[number];

export interface ClusterOptions {
  /** Server processes (default 3). */
  processes?: number;
  /** The proxy's port; the servers listen on the next ones (port + 1 … port + N). */
  port: number;
  /** anvil's port. */
  chainPort: number;
  /** Chain state, logs, secrets and (when `persistent`) the PostgreSQL cluster live here. */
  dataDir: string;
  /** Use this database instead of starting PostgreSQL. */
  databaseUrl?: string;
  /** Use this Redis instead of starting redis-server. */
  redisUrl?: string;
  /**
   * Keep the PostgreSQL cluster (dataDir/pg), the chain (dataDir/chain) and the secrets across runs (`npm run
   * cluster`). Otherwise everything is new (the tests); the caller removes dataDir.
   */
  persistent?: boolean;
  /**
   * nginx with proxy_cache on `port`, in front of the proxy (nginx.ts); `front`: it is the site (PUBLIC_URL), as for
   * `npm run cluster`, else an extra door beside the proxy's (the tests).
   */
  sharedCache?: { port: number; front?: boolean };
  /** More server variables (RATE_LIMIT_MULTIPLIER, CHAIN_POLL_MS, …); they win over the launcher's. */
  env?: Record<string, string>;
  log?: (message: string) => void;
}

export interface ServerProcess {
  /** 0 … N − 1: its place in the cluster, kept by its replacements. */
  index: number;
  port: number;
  url: string;
  pid: number;
  /** Its stdout and stderr (JSON log lines). */
  logFile: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

export interface Cluster {
  /** The proxy's URL: the site. */
  url: string;
  /** nginx's URL, with its shared cache (ClusterOptions.sharedCache). */
  cacheUrl?: string;
  databaseUrl: string;
  redisUrl: string;
  rpcUrl: string;
  deploymentFile: string;
  /** What every server process is started with (secrets included): the tests sign payment events with it. */
  env: Record<string, string>;
  /** The bearer token of every process's /metrics. */
  metricsToken: string;
  /** The live server processes, by index. */
  servers(): ServerProcess[];
  /** SIGKILL, as a crash: no shutdown runs, its connections (and the advisory locks on them) just drop. */
  kill(index: number): Promise<void>;
  /** Starts a new process in the place of `index` (killed, or stopped) on its port, and waits for its /healthz. */
  replace(index: number): Promise<ServerProcess>;
  /** Replaces every server process that has exited (killed by a test that failed before it replaced it); their indexes. */
  heal(): Promise<number[]>;
  /** The last lines of each server process's log (the killed ones' too), for a failure's report. */
  logTails(lines?: number): string;
  /** Stops the proxy, the servers (SIGTERM, then SIGKILL), the chain, Redis and PostgreSQL (those it started). */
  stop(): Promise<void>;
}

const SERVER_START_TIMEOUT_MS = 90_000;

/** The secrets every process must share; kept in dataDir/secrets.json for a persistent cluster (the wallets' key above all). */
function sharedSecrets(dataDir: string, persistent: boolean): Record<string, string> {
  const file = path.join(dataDir, "secrets.json");
  if (persistent && fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>;
  const secrets = {
    SESSION_SECRET: randomBytes(32).toString("hex"),
    STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString("hex")}`,
    WALLET_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    INTERNAL_TOKEN: randomBytes(32).toString("hex"),
    METRICS_TOKEN: randomBytes(16).toString("hex"),
  };
  if (persistent) fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export async function launchCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.processes ?? 3;
  // The site's port: nginx's when it is the front door, else the proxy's.
  const publicPort = options.sharedCache?.front ? options.sharedCache.port : options.port;
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  const logDir = path.join(dataDir, "logs");
  fs.mkdirSync(logDir, { recursive: true });
  // The build the servers will load (server.ts reads REMIX_BUILD_DIR the same way).
  const buildDir = options.env?.REMIX_BUILD_DIR ?? process.env.REMIX_BUILD_DIR ?? "build";
  if (!fs.existsSync(path.resolve(REPO_ROOT, buildDir, "index.js")))
    throw new Error(`No production build in ${buildDir}/: run \`npm run build\` first`);

  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        log(`stopping: ${(error as Error).message}`);
      }
    }
  };

  try {
    // The shared services side by side, all settled before going on: one failing must not leave another still starting (and unstopped).
    const started = await Promise.allSettled([
      (async () => {
        if (options.databaseUrl) return options.databaseUrl;
        const pg = await startPostgresCluster({
          port: options.port + count + 2,
          dir: options.persistent ? path.join(dataDir, "pg") : undefined,
        });
        stops.push(() => pg.stop());
        log(`PostgreSQL on ${pg.url}`);
        return pg.url;
      })(),
      (async () => {
        if (options.redisUrl) return options.redisUrl;
        const redis = await startRedis(options.port + count + 1, path.join(logDir, "redis.log"));
        stops.push(() => redis.stop());
        log(`Redis on ${redis.url}`);
        return redis.url;
      })(),
      (async (): Promise<LocalChain> => {
        const chainDir = path.join(dataDir, "chain");
        if (!options.persistent) fs.rmSync(chainDir, { recursive: true, force: true });
        const node = await startLocalChain({
          port: options.chainPort,
          stateFile: path.join(chainDir, "anvil-state.json"),
          deploymentFile: path.join(chainDir, "deployment.json"),
          log: (message) => log(`[chain] ${message}`),
        });
        stops.push(() => node.stop());
        // The servers get CHAIN_RPC_URL and leave the chain alone: point its metadata at the site here (decision 0016).
        await alignMetadataBase(node.deployment, metadataBaseUris(`http://127.0.0.1:${publicPort}`), { rpcUrl: node.rpcUrl });
        watchdog(node.pid, "TERM");
        return node;
      })(),
    ]);
    const failed = started.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    const [databaseUrl, redisUrl, chain] = started.map((result) => (result as PromiseFulfilledResult<unknown>).value) as [
      string,
      string,
      LocalChain,
    ];
    const deploymentFile = path.join(dataDir, "chain", "deployment.json");
    const secrets = sharedSecrets(dataDir, options.persistent ?? false);
    const proxyPort = options.port;
    const publicUrl = `http://127.0.0.1:${publicPort}`;
    const env: Record<string, string> = {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PUBLIC_URL: publicUrl,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      CHAIN_RPC_URL: chain.rpcUrl,
      DEPLOYMENT_FILE: deploymentFile,
      TRUST_PROXY: "loopback",
      ...secrets,
      ...options.env,
    };
    // Not inherited: each process gets its own port, and none may start a chain or open a SQLite file of its own.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        (entry): entry is [string, string] =>
          entry[1] !== undefined && !["PORT", "CHAIN_PORT", "DATABASE_PATH", "METRICS_PORT"].includes(entry[0]),
      ),
    );

    const servers: ServerProcess[] = [];
    const starts = new Map<number, number>();
    const spawnServer = (index: number): ServerProcess => {
      const port = proxyPort + 1 + index;
      const generation = (starts.get(index) ?? 0) + 1;
      starts.set(index, generation);
      const logFile = path.join(logDir, `server-${index}${generation > 1 ? `-${generation}` : ""}.log`);
      const out = fs.openSync(logFile, "a");
      // One node process (no tsx wrapper), so a signal hits the server itself.
      const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
        cwd: REPO_ROOT,
        env: {
          ...inherited,
          ...env,
          NODE_ENV: "production",
          PORT: String(port),
          // Unused on PostgreSQL but for the directory it names; one per process all the same.
          DATABASE_PATH: path.join(dataDir, `server-${index}`, "spark.db"),
        },
        stdio: ["ignore", out, out],
      });
      fs.closeSync(out);
      if (!child.pid) throw new Error(`could not start server ${index}`);
      watchdog(child.pid);
      const server = { index, port, url: `http://127.0.0.1:${port}`, pid: child.pid, logFile, child, exited: once(child, "exit") };
      servers[index] = server;
      return server;
    };
    const ready = async (server: ServerProcess) => {
      await waitFor(
        `server ${server.index} (${server.url}/healthz)`,
        async () => {
          if (exitedAlready(server.child))
            throw new Error(
              `server ${server.index} exited (${server.child.exitCode ?? server.child.signalCode}):\n${tail(server.logFile, 40)}`,
            );
          return healthy(server.url);
        },
        { timeoutMs: SERVER_START_TIMEOUT_MS, intervalMs: 200 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n--- ${server.logFile}\n${tail(server.logFile, 40)}`);
      });
      return server;
    };
    stops.push(async () => {
      await Promise.all(servers.map((server) => stopChild(server.child, server.exited)));
    });
    // One first, so the migrations and the demo seed run once under their advisory lock without the others waiting on it.
    await ready(spawnServer(0));
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => ready(spawnServer(i + 1))));
    log(`${count} server processes on ports ${proxyPort + 1}-${proxyPort + count}`);

    const proxy: Proxy = await startProxy({ port: proxyPort, backends: () => servers.map(({ port }) => ({ host: "127.0.0.1", port })) });
    stops.push(() => proxy.close());
    let cacheUrl: string | undefined;
    if (options.sharedCache) {
      const cache = await startSharedCache({
        port: options.sharedCache.port,
        upstream: `127.0.0.1:${proxyPort}`,
        dir: path.join(dataDir, "nginx"),
      });
      stops.push(() => cache.stop());
      cacheUrl = cache.url;
      log(`nginx's shared cache on ${cache.url} (pid ${cache.pid}), in front of ${proxy.url}`);
    }

    return {
      url: proxy.url,
      cacheUrl,
      databaseUrl,
      redisUrl,
      rpcUrl: chain.rpcUrl,
      deploymentFile,
      env,
      metricsToken: secrets.METRICS_TOKEN,
      servers: () => [...servers],
      async kill(index) {
        const server = servers[index];
        if (!server || exitedAlready(server.child)) return;
        server.child.kill("SIGKILL");
        await server.exited;
      },
      async replace(index) {
        const old = servers[index];
        if (old && !exitedAlready(old.child)) await stopChild(old.child, old.exited);
        return ready(spawnServer(index));
      },
      async heal() {
        const dead = servers.filter((server) => exitedAlready(server.child)).map((server) => server.index);
        await Promise.all(dead.map((index) => ready(spawnServer(index))));
        return dead;
      },
      logTails(lines = 30) {
        // Every process's, the killed ones' too (server-<index>-<n>.log for the n-th process in a place).
        const files = fs
          .readdirSync(logDir)
          .filter((name) => /^server-\d+(-\d+)?\.log$/.test(name))
          .sort();
        return files.map((name) => `--- ${path.join(logDir, name)}\n${tail(path.join(logDir, name), lines)}`).join("\n");
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The roles `url`'s process holds, by its /metrics gauge `spark_role_held{role=…}`: null when it does not answer. */
export async function rolesHeld(url: string, metricsToken: string): Promise<Set<Role> | null> {
  try {
    const response = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
      signal: AbortSignal.timeout(2_000),
    });
    if (!response.ok) return null;
    const text = await response.text();
    const held = new Set<Role>();
    for (const match of text.matchAll(/^spark_role_held\{[^}]*role="(\w+)"[^}]*\}\s+([0-9.e+-]+)\s*$/gm)) {
      if (Number(match[2]) === 1 && (ROLES as readonly string[]).includes(match[1])) held.add(match[1] as Role);
    }
    return held;
  } catch {
    return null;
  }
}

/** The live server holding `role` now, or null (none says it does, or two do). */
export async function roleHolder(cluster: Cluster, role: Role): Promise<ServerProcess | null> {
  const live = cluster.servers().filter((server) => !exitedAlready(server.child));
  const held = await Promise.all(live.map((server) => rolesHeld(server.url, cluster.metricsToken)));
  const holders = live.filter((_, i) => held[i]?.has(role));
  return holders.length === 1 ? holders[0] : null;
}
