/**
 * One run of the market's chain reconciler (decision 0027) on the server's configuration:
 *   npm run reconcile [-- --dry-run]
 * It reads what the server reads (DATABASE_URL or DATABASE_PATH, CHAIN_RPC_URL or the local node on CHAIN_PORT,
 * DEPLOYMENT_FILE or the local node's, CHAIN_CONFIRMATIONS, CHAIN_FINALITY), prints each difference and a summary,
 * and repairs what differs unless --dry-run. A SQLite file belongs to one process: while a server runs on it, its own reconciler role
 * repairs (every RECONCILE_INTERVAL_MS), and here only a dry run is allowed.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { isPostgresUrl } from "../backend/db";
import { openDatabase } from "../backend/schema";
import { DatabaseInUseError, lockDatabase } from "../backend/db/process-lock";
import { MarketDb } from "../backend/market/shared/db";
import { createChainReconciler } from "../backend/market/reconciler/reconciler";
import { readDeployment } from "../contracts/deployment";
import { parseEnv } from "../app/services/env.server";
import { backendChainFromEnv } from "../server/backend-chain";

async function main() {
  const { values } = parseArgs({ options: { "dry-run": { type: "boolean", default: false } } });
  const dryRun = values["dry-run"]!;
  const env = parseEnv();
  const database = env.DATABASE_URL ?? env.DATABASE_PATH;
  const deploymentFile = env.DEPLOYMENT_FILE ?? path.join(path.dirname(env.DATABASE_PATH), "chain", "deployment.json");
  const deployment = readDeployment(deploymentFile);
  if (!deployment) throw new Error(`No contract deployment at ${deploymentFile}`);
  const lock = dryRun || isPostgresUrl(database) ? null : await lockDatabase(database, { info() {}, warn() {}, error() {} });
  const store = await openDatabase(database);
  try {
    const reconciler = createChainReconciler(
      new MarketDb(store),
      // Without CHAIN_RPC_URL the server runs a local node on CHAIN_PORT: it must be running.
      backendChainFromEnv(env, env.CHAIN_RPC_URL ?? [`http://127.0.0.1:${env.CHAIN_PORT}`], deployment),
      { log: { info: (line: string) => console.log(line), warn: (line: string) => console.log(line), error: console.error } },
    );
    const report = await reconciler.run({ dryRun });
    if (dryRun) console.log("Dry run: nothing was repaired.");
    if (report.block === null) process.exitCode = 1;
  } finally {
    await store.close();
    await lock?.release();
  }
}

main().catch((error: unknown) => {
  if (error instanceof DatabaseInUseError)
    console.error(`${error.message}\nThe server on it runs the reconciler itself (RECONCILE_INTERVAL_MS); here, only --dry-run.`);
  else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
