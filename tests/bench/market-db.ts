/**
 * The benchmarks' market databases: built once with scripts/seed.ts's generator and cached in `cacheDir`, keyed by
 * size and by a hash of the schema and generator sources, so a rerun only measures.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buildMarketDb } from "../../scripts/seed";

function sourceHash(): string {
  const hash = createHash("sha256");
  const market = ["generate", "shared/items", "shared/activity", "shared/ledger", "seed"].map((name) => `backend/market/${name}.ts`);
  // The market's migrations are one file each (backend/market/migrations/), in the folder's order.
  const migrations = fs
    .readdirSync(path.resolve("backend/market/migrations"))
    .sort()
    .map((name) => `backend/market/migrations/${name}`);
  for (const file of [...migrations, ...market, "scripts/seed.ts"]) {
    hash.update(fs.readFileSync(path.resolve(file)));
  }
  return hash.digest("hex").slice(0, 10);
}

/** The cached database of `listings` listings, built first when missing (older builds of that size are removed). */
export async function cachedMarketDb(cacheDir: string, listings: number): Promise<string> {
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `market-${listings}-${sourceHash()}.db`);
  if (fs.existsSync(file)) return file;
  for (const stale of fs.readdirSync(cacheDir).filter((name) => name.startsWith(`market-${listings}-`))) {
    fs.rmSync(path.join(cacheDir, stale), { force: true });
  }
  console.log(`building ${listings.toLocaleString("en")} listings (cached for later runs) …`);
  await buildMarketDb(`${file}.tmp`, listings, { log: (line) => console.log(line) });
  fs.renameSync(`${file}.tmp`, file);
  return file;
}
