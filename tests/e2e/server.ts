/** Starts the production build on a fresh data directory (unless E2E_KEEP_DATA=1) for the end-to-end tests. */
import fs from "node:fs";

// One data directory per port, so two suites on one machine never share a database.
const dataDir = `data/e2e-${process.env.E2E_PORT ?? "3210"}`;
// E2E_KEEP_DATA=1 restarts on what the previous server left there (the restart test).
if (process.env.E2E_KEEP_DATA !== "1") fs.rmSync(dataDir, { recursive: true, force: true });
Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: process.env.E2E_PORT ?? "3210",
  HOST: "127.0.0.1",
  DATABASE_PATH: `${dataDir}/spark.db`,
  REQUEST_LOG: "off",
  // The suite signs in many times from one IP; the limits themselves are tested separately.
  RATE_LIMIT_MULTIPLIER: "100",
  // Its own chain, so a running dev server on 8545 does not collide.
  CHAIN_PORT: process.env.E2E_CHAIN_PORT ?? "8546",
});
// E2E_ENGINE=postgres: the embedded backends on a throwaway PostgreSQL cluster, stopped when this server exits.
if (process.env.E2E_ENGINE === "postgres") {
  const { startPostgresCluster } = await import("../support/postgres");
  const cluster = await startPostgresCluster();
  process.env.DATABASE_URL = cluster.url;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void cluster.stop().finally(() => process.exit(0)));
  }
}
// E2E_PROVIDER=1 (the suite's main server): the server reaches its chain as it would a provider's (issue 41), through
// tests/support/rpc-proxy.ts: 1,000-block log ranges, now and then a 429. The node is started here, as server.ts
// starts its own, and browsers' wallets still read it directly.
if (process.env.E2E_PROVIDER === "1") {
  const { startLocalChain } = await import("../../contracts/chain");
  const { alignMetadataBase, metadataBaseUris } = await import("../../contracts/metadata-base");
  const { startRpcProxy } = await import("../support/rpc-proxy");
  const metadataBase = metadataBaseUris(`http://localhost:${process.env.PORT}`);
  const deploymentFile = `${dataDir}/chain/deployment.json`;
  const chain = await startLocalChain({
    port: Number(process.env.CHAIN_PORT),
    stateFile: `${dataDir}/chain/anvil-state.json`,
    deploymentFile,
    ...metadataBase,
  });
  await alignMetadataBase(chain.deployment, metadataBase, { rpcUrl: chain.rpcUrl });
  const provider = await startRpcProxy({ target: chain.rpcUrl, maxLogRange: 1_000, rateLimitShare: 0.01, seed: Number(process.env.PORT) });
  Object.assign(process.env, { CHAIN_RPC_URL: provider.url, CHAIN_PUBLIC_RPC_URL: chain.rpcUrl, DEPLOYMENT_FILE: deploymentFile });
}
const { backends } = await import("../../server");
// Tests stock their own accounts through the server's database connection (stock.ts).
const { serveStockroom } = await import("./stock");
if (backends) await serveStockroom(backends.store, dataDir);
