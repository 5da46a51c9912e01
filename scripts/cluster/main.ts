/**
 * `npm run cluster [-- --processes 3 --port 3100 --chain-port 8645 --fresh --no-cache]`: the site on N server
 * processes behind one port (launch.ts), with PostgreSQL (DATABASE_URL, else a cluster kept in data/cluster/pg), Redis
 * (REDIS_URL, else a redis-server of its own) and one anvil (data/cluster/chain). In front of them all, nginx's shared
 * cache (nginx.ts) on port + processes + 3, the site's address, when Debian's nginx is installed and --no-cache is
 * not given. Ctrl-C stops everything it started.
 */
import fs from "node:fs";
import path from "node:path";
import { cliOptions } from "../cli-options";
import { launchCluster, REPO_ROOT, roleHolder, ROLES } from "./launch";
import { nginxBinary } from "./nginx";

const values = cliOptions({ processes: "3", port: "3100", "chain-port": "8645", fresh: false, "no-cache": false });
const processes = Number(values.processes);
const port = Number(values.port);
const chainPort = Number(values["chain-port"]);
if (!Number.isInteger(processes) || processes < 1 || processes > 32) throw new Error("--processes: a whole number from 1 to 32");
if (!Number.isInteger(port) || port < 1 || port + processes + 3 > 65535)
  throw new Error("--port: a port with room for the servers after it");
if (!Number.isInteger(chainPort) || chainPort < 1 || chainPort > 65535) throw new Error("--chain-port: a port");

const dataDir = path.join(REPO_ROOT, "data", "cluster");
// --fresh: a new database, chain and secrets (an external DATABASE_URL is left alone).
if (values.fresh) fs.rmSync(dataDir, { recursive: true, force: true });

const log = (message: string) => console.log(`[cluster] ${message}`);
// After the proxy, the servers, Redis and PostgreSQL.
const cachePort = port + processes + 3;
const withCache = !values["no-cache"] && nginxBinary() !== null;
if (!values["no-cache"] && !withCache) log("nginx is not installed (apt-get install nginx-light): no shared cache in front");
const cluster = await launchCluster({
  processes,
  port,
  chainPort,
  dataDir,
  persistent: true,
  sharedCache: withCache ? { port: cachePort, front: true } : undefined,
  databaseUrl: process.env.DATABASE_URL,
  redisUrl: process.env.REDIS_URL,
  log,
}).catch((error: Error) => {
  // Everything it had started is stopped already.
  console.error(`[cluster] could not start: ${error.message}`);
  process.exit(1);
});

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  cluster.stop().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));

for (const server of cluster.servers())
  log(`server ${server.index}: ${server.url} (pid ${server.pid}, log ${path.relative(REPO_ROOT, server.logFile)})`);
const holders = await Promise.all(ROLES.map(async (role) => `${role}: ${(await roleHolder(cluster, role))?.index ?? "?"}`));
log(`role holders (server index, from /metrics): ${holders.join(", ")}`);
log(`metrics: curl -H 'Authorization: Bearer ${cluster.metricsToken}' <server url>/metrics`);
const site = cluster.cacheUrl ? `${cluster.cacheUrl} (nginx's shared cache, in front of ${cluster.url})` : cluster.url;
console.log(`\nSpark Era is up on ${site} (${processes} processes). Ctrl-C stops it.\n`);
