/** Shared by the suites that call the market's trade functions directly, on a database of their own. */
import { openDatabase } from "../../backend/schema";
import type { BackendDb } from "../../backend/types";
import { MarketDb, type Sql } from "../../backend/market/shared/db";
import { freshDatabase } from "./engine";

/** A fresh database of the engine under test and the market's writer over it, with `seed` written in one transaction. */
export async function seededMarketDb(seed: (tx: Sql, now: number) => Promise<void>): Promise<{ store: BackendDb; db: MarketDb }> {
  const store = await openDatabase(await freshDatabase());
  const db = new MarketDb(store);
  const now = Date.now();
  await db.write((tx) => seed(tx, now));
  return { store, db };
}

/** An in-game item of `owner`, held and not listed. */
export const insertGameItem = (tx: Sql, item: { nftType: number; tokenId: string }, owner: string, now: number) =>
  tx.run(
    `insert into market_items (nft_type, token_id, owner_address, location, name, image, created_at, updated_at)
     values (?, ?, ?, 0, 'counted', '', ?, ?)`,
    [item.nftType, item.tokenId, owner, now, now],
  );
