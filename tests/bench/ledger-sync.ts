/**
 * What synchronous=FULL costs the ledger (backend/db/index.ts): the same trades (sell, then buy: two commits)
 * through the ledger's own transactions, on a real SQLite file in WAL mode, with synchronous=NORMAL and FULL.
 * Prints trades per second and ms per commit for each, and the FULL/NORMAL ratio. Figures depend on the disk.
 *   npx tsx tests/bench/ledger-sync.ts [--trades 500]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import { startBackends } from "../../backend";
import { DEMO_BROWSER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEV_CLAIM_SIGNER_KEY } from "~core/demo";
import { MarketDb } from "../../backend/market/shared/db";
import { buy, sell } from "../../backend/market/trades/trades";
import { orderCounter } from "../../backend/market/trades/orders";
import { orderProofs, ownerOf } from "../backend/direct-orders";
import type { BackendOptions } from "../../backend/types";
import { LOCAL_CHAIN_ID } from "~core/constants";

const values = cliOptions({ trades: "500" });
const TRADES = Number(values.trades);

const OPTIONS: BackendOptions = {
  walletEncryptionKey: "11".repeat(32),
  claimSignerKey: DEV_CLAIM_SIGNER_KEY,
  chainId: LOCAL_CHAIN_ID,
  signInDomain: "localhost",
  tokenTtlSeconds: 3600,
  exposeDevOutbox: false,
  seedDemo: true,
  // The trades below name their parties directly: no token is looked up.
  ssoApi: { baseUrl: "http://127.0.0.1:9" },
};

const PARTIES = [ownerOf(DEMO_BROWSER_ACCOUNT.wallet), ownerOf(DEMO_MANAGED_ACCOUNT.wallet)];

/** One item passed back and forth between the two demo wallets: each trade is a sell and a buy transaction. */
async function run(mode: "NORMAL" | "FULL"): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-ledger-bench-"));
  const backend = await startBackends(path.join(dir, "bench.db"), OPTIONS);
  try {
    backend.store.sqlite!.pragma(`synchronous = ${mode}`);
    const db = new MarketDb(backend.store);
    const item = (await db.get<{ nftType: number; tokenId: string }>(
      `select nft_type as "nftType", token_id as "tokenId" from market_items i
       where owner_address = ? and location = 0
         and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0)
       order by id limit 1`,
      [DEMO_BROWSER_ACCOUNT.wallet],
    ))!;
    const price = 10n ** 15n;
    const order = orderProofs();

    const started = performance.now();
    for (let i = 0; i < TRADES; i++) {
      const [seller, buyer] = i % 2 === 0 ? PARTIES : [PARTIES[1], PARTIES[0]];
      const address = seller.walletAddress!;
      const counter = await orderCounter(db, address);
      const { listingId } = await db.write((tx) =>
        sell(tx, seller, { ...item, ownerAddress: address, address, price, currency: "FIRE", counter }, order(), Date.now()),
      );
      await db.write((tx) => buy(tx, buyer, { ...item, listingId, price, address: buyer.walletAddress! }, order(), Date.now()));
    }
    return performance.now() - started;
  } finally {
    await backend.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const figures: Record<string, number> = {};
// NORMAL, FULL, then each again: the better of two runs, so a neighbour's burst of I/O weighs less.
for (const mode of ["NORMAL", "FULL", "NORMAL", "FULL"] as const) {
  const ms = await run(mode);
  figures[mode] = Math.min(figures[mode] ?? Infinity, ms);
}
for (const mode of ["NORMAL", "FULL"]) {
  const ms = figures[mode];
  console.log(
    `synchronous=${mode.padEnd(6)} ${TRADES} trades in ${ms.toFixed(0)} ms: ${((TRADES * 1000) / ms).toFixed(0)} trades/s, ` +
      `${(ms / (TRADES * 2)).toFixed(3)} ms per write transaction`,
  );
}
const extra = (figures.FULL - figures.NORMAL) / (TRADES * 2);
console.log(
  `FULL takes ${(figures.FULL / figures.NORMAL).toFixed(2)}× the time of NORMAL: ${extra.toFixed(3)} ms more per commit (its fsync)`,
);
