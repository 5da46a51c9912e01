/** What the multi suite's global setup (global-setup.ts) tells its workers, and the ports it uses. */
import type { Cluster } from "../../scripts/cluster/launch";

/** The cluster's description, as JSON, in the workers' environment. */
export const CLUSTER_INFO_ENV = "SPARK_MULTI_CLUSTER";

const base = Number(process.env.MULTI_PORT ?? 3560);
/**
 * The proxy on `base`, the three servers on the next three, Redis and PostgreSQL after them, nginx's shared cache at
 * + 8, the control server at + 9.
 */
export const MULTI_PORTS = { proxy: base, cache: base + 8, control: base + 9, chain: Number(process.env.MULTI_CHAIN_PORT ?? 8960) };

export interface ServerInfo {
  index: number;
  port: number;
  url: string;
  pid: number;
  logFile: string;
}

/** What the global setup hands the test files: the cluster's addresses and secrets (launch.ts `Cluster`), as JSON. */
export type ClusterInfo = Pick<
  Cluster,
  "url" | "cacheUrl" | "databaseUrl" | "redisUrl" | "rpcUrl" | "deploymentFile" | "env" | "metricsToken"
> & {
  /** kill, replace, servers and logs (global-setup.ts). */
  controlUrl: string;
  dir: string;
};
