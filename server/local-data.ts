/**
 * The embedded default keeps its chain state and its database side by side under data/, in agreement. When the
 * contracts change (another sources hash than the deployment was built from), the old chain cannot serve the new
 * app: both are moved aside together, and the start deploys and seeds anew. Nothing is deleted.
 */
import fs from "node:fs";
import path from "node:path";
import { committedSourcesHash, DEPLOYMENT_WIRING } from "../contracts/deploy";
import { readDeployment } from "../contracts/deployment";

/**
 * Moves the database and the chain aside when the chain was deployed from other contracts or wired another way;
 * returns where to, or null.
 */
export function retireStaleLocalData(databasePath: string, chainDir: string, now = new Date()): string | null {
  const deployment = readDeployment(path.join(chainDir, "deployment.json"));
  if (!deployment || (deployment.sourcesHash === committedSourcesHash() && deployment.wiring === DEPLOYMENT_WIRING)) return null;
  const dataDir = path.dirname(databasePath);
  const target = path.join(dataDir, `stale-${now.toISOString().replace(/[:.]/g, "-")}`);
  fs.mkdirSync(target, { recursive: true });
  for (const file of fs.readdirSync(dataDir)) {
    if (file === path.basename(databasePath) || file.startsWith(`${path.basename(databasePath)}-`)) {
      fs.renameSync(path.join(dataDir, file), path.join(target, file));
    }
  }
  fs.renameSync(chainDir, path.join(target, path.basename(chainDir)));
  return target;
}
