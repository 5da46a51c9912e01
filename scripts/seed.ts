/**
 * Builds a large market database for benchmarks and load tests, with the demo seed's generator:
 *   npx tsx scripts/seed.ts --db data/bench.db --listings 100000 [--seed 7] [--force]
 * Items ≈ 1.25 × listings (some unlisted, some on chain), past sales 10 % and cancels 5 % of listings,
 * one wallet per 20 listings. The demo wallets are in it too, so the app can run on the file.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { cliOptions } from "./cli-options";
import { openDatabase } from "../backend/schema";
import { MarketDb } from "../backend/market/shared/db";
import { type GenerateResult, analyze, generateMarket } from "../backend/market/generate";
import { DEMO_WALLETS, demoMarketOptions } from "../backend/market/seed";

export async function buildMarketDb(
  file: string,
  listings: number,
  { seed = 7, log = (line: string) => console.log(line) }: { seed?: number; log?: (line: string) => void } = {},
): Promise<GenerateResult> {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  const store = await openDatabase(file);
  const sqlite = store.sqlite!;
  try {
    // A file being filled from scratch: no journal (a crash means rebuild), sorts for the indexes in memory.
    sqlite.pragma("journal_mode = OFF");
    sqlite.pragma("synchronous = OFF");
    sqlite.pragma("temp_store = MEMORY");
    sqlite.pragma("cache_size = -1048576");
    const db = new MarketDb(store);
    const started = performance.now();
    const items = Math.round(listings * 1.25);
    const wallets = Math.max(50, Math.round(listings / 20));
    // Building indexes once over the loaded rows is several times faster than updating them row by row.
    const indexes = sqlite
      .prepare("select name, sql from sqlite_master where type = 'index' and tbl_name like 'market_%' and sql is not null")
      .all() as { name: string; sql: string }[];
    for (const index of indexes) sqlite.exec(`drop index ${index.name}`);
    const result = await generateMarket(db, {
      ...demoMarketOptions(Date.now()),
      seed,
      items,
      activeListings: listings,
      sales: Math.round(listings / 10),
      cancels: Math.round(listings / 20),
      wallets,
      demoWallets: DEMO_WALLETS,
      invitees: Math.round(wallets / 10),
      onProgress: (done) => {
        if (done % 100_000 === 0 || done === items) {
          log(
            `  ${done.toLocaleString("en")} / ${items.toLocaleString("en")} items, ${((performance.now() - started) / 1000).toFixed(1)} s`,
          );
        }
      },
    });
    const loaded = performance.now();
    for (const index of indexes) sqlite.exec(index.sql);
    log(`  indexes built in ${((performance.now() - loaded) / 1000).toFixed(1)} s`);
    await analyze(db);
    sqlite.pragma("journal_mode = WAL");
    log(`built ${file}: ${JSON.stringify(result)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } finally {
    await store.close();
  }
}

async function main() {
  const values = cliOptions({ db: "data/bench.db", listings: "100000", seed: "7", force: false });
  const listings = Number(values.listings);
  if (!Number.isSafeInteger(listings) || listings < 1) throw new Error("--listings: expected a positive whole number");
  const file = path.resolve(values.db!);
  if (fs.existsSync(file) && !values.force) throw new Error(`${file} exists; pass --force to replace it`);
  await buildMarketDb(file, listings, { seed: Number(values.seed) });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
