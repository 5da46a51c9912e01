/**
 * The pages a visitor's copy of may be shared (decision 0033's table): each path, the generation that says when what it
 * shows changed, and how long at most it may stand still for what has none. Every page here renders for a visitor (no
 * cookie) from public data only: no form with a per-response value (the honeypot is on /login and /forgot-password
 * only, and a managed wallet's idempotency keys are on signed-in pages, which are never shared), no user.
 */
import type { Request as ExpressRequest } from "express";
import type { CachedPath } from "./page-cache";
import type { Generation } from "./cached-page";

/** How long a page may stand still for what it shows with no generation (a display name, a sale leaving a window). */
export const UNGENERATED_FRESH_MS = 60_000;

export interface GenerationSources {
  /** The market pages' generation (backend/market/trades/page-generation.ts). */
  market: () => Promise<number>;
  /** The chain's latest block (app/services/chain.server.ts latestBlockNumber). */
  chain: () => Promise<bigint>;
  /** How far the chain indexer has applied the chain (backend/market/trades/page-generation.ts indexerGenerationReader). */
  indexer: () => Promise<string>;
  /** Counts a visitor's view of the item page a request names (server/item-views.ts), for a page the cache answers. */
  countView?: (req: ExpressRequest) => Promise<unknown>;
}

/** A page of the build alone: its ETag's digest names the build, and nothing else moves it. */
const BUILD_ONLY = async (): Promise<Generation> => 0;

export function visitorPages({ market, chain, indexer, countView }: GenerationSources): CachedPath[] {
  const marketGeneration = market;
  const chainGeneration = async (): Promise<Generation> => `b${await chain()}`;
  // The market's, the chain's block (what the page reads from the chain) and the indexer's cursors (what the market
  // holds of the chain: holdings, an item's holder).
  const all = async (): Promise<Generation> => {
    const [m, b, i] = await Promise.all([market(), chain(), indexer()]);
    return `${m}.b${b}.i${i}`;
  };
  const fresh = UNGENERATED_FRESH_MS;
  return [
    // What is on sale: the market's generation; a sale leaving a time window bounds it itself (X-Page-Cache-Until).
    { path: "/marketplace/market", generation: marketGeneration },
    // Top sales and activity over a period, and the volume by day: the market's, and a window or a day that moves on.
    { path: "/marketplace", generation: marketGeneration, freshForMs: fresh },
    { path: "/marketplace/statistics", generation: marketGeneration, freshForMs: fresh },
    // An item: its listing, views, offers and sales (market); its token's metadata (chain) and holder (the indexer);
    // the holder's display name (the SSO, no generation).
    // A view from the cache is counted as the loader counts it.
    { path: "/marketplace/detail", generation: all, freshForMs: fresh, ...(countView ? { onServe: countView } : {}) },
    // A player: their listings (market), what they hold (chain, indexer), their display name (SSO).
    { path: /\/player\/0x[0-9a-fA-F]{40}/, generation: all, freshForMs: fresh },
    // Box prices, supply and sale terms, read at the latest block.
    { path: "/home", generation: chainGeneration },
    { path: /\/lootbox\/\d{1,3}/, generation: chainGeneration, freshForMs: fresh },
    // Pools and their terms, a ship: the chain, at the latest block; times shown against the clock.
    { path: "/loyalty", generation: chainGeneration, freshForMs: fresh },
    { path: /\/loyalty\/(?:page|rewards)\/[\w-]{1,40}/, generation: chainGeneration, freshForMs: fresh },
    { path: "/spaceship/detail", generation: chainGeneration, freshForMs: fresh },
    // Every input is in the URL.
    { path: "/spaceship/calculator", generation: BUILD_ONLY },
  ];
}
