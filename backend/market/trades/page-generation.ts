/**
 * The market pages' generation (migrations/market_011_page_generation.ts), read by the app's page cache for visitors
 * (server/page-cache.ts) when the market backend is embedded: a number that moves on every change to what a market
 * page shows, so a page rendered at one generation is the page the market would render as long as it stands still.
 */
import type { BackendDb } from "../../types";
import { MarketDb } from "../shared/db";
import { sweepExpiredListings } from "./trades";

/**
 * Reads the generation, first closing the listings whose signed expiry has passed (as a market query would):
 * time alone never leaves an expired listing on a page cached before its expiry.
 */
export async function marketPageGeneration(db: MarketDb, now = Date.now()): Promise<number> {
  await sweepExpiredListings(db, now);
  // A split counter (market_015): writers bump one slot each, so the generation is the slots' sum.
  const row = await db.get<{ value: number }>("select cast(sum(value) as bigint) as value from market_page_generation_slots");
  return row!.value;
}

/** The reader for the store the embedded backends opened (startBackends' `store`). */
export function pageGenerationReader(store: BackendDb): () => Promise<number> {
  const db = new MarketDb(store);
  return () => marketPageGeneration(db);
}

/**
 * How far the chain indexer has applied the chain: the sum of its streams' cursors (market_chain_cursors), each moved
 * in the transaction that applies its range (a reorg moves one back: the sum changes all the same). A page showing
 * what the indexer writes (holdings, an item's holder) keys on it, so the block it was rendered after is not enough
 * while the indexer has yet to apply that block.
 */
export function indexerGenerationReader(store: BackendDb): () => Promise<string> {
  const db = new MarketDb(store);
  return async () => {
    const row = await db.get<{ value: string | number | null }>(
      "select cast(coalesce(sum(block), 0) as bigint) as value from market_chain_cursors",
    );
    return String(row?.value ?? 0);
  };
}
