/**
 * Values computed from the market's active listings and sales (a count, a view's numbers), served from memory while
 * the listing generation stands still (migrations/market_004_listing_generation.ts: triggers move it on every listing
 * change, whoever writes, and every sale closes a listing), so a popular view is computed once per change of the
 * market rather than once per visit. A value that also depends on the clock says until when it holds.
 * The generation is the sum of its slots (market_029, decision 0034): each change adds 1 to its listing's slot.
 */
import type { Sql } from "./db";

/** How many values are kept per database; the oldest goes first. */
const CACHE_SIZE = 1000;
const caches = new WeakMap<object, { generation: number; values: Map<string, { value: unknown; from: number; until: number }> }>();

/** The value of `key`, computed at `now` unless one computed earlier holds at `now` (from its time until its `until`). */
export async function byGeneration<T>(
  db: Sql,
  key: string,
  now: number,
  compute: () => Promise<{ value: T; until?: number | null }>,
): Promise<T> {
  const generation = Number(
    (await db.get<{ value: number }>("select cast(sum(value) as bigint) as value from market_listing_generation_slots"))!.value,
  );
  let cache = caches.get(db);
  if (!cache || cache.generation !== generation) {
    cache = { generation, values: new Map() };
    caches.set(db, cache);
  }
  const kept = cache.values.get(key);
  if (kept && kept.from <= now && now < kept.until) return kept.value as T;
  const { value, until } = await compute();
  cache.values.delete(key);
  if (cache.values.size >= CACHE_SIZE) cache.values.delete(cache.values.keys().next().value!);
  cache.values.set(key, { value, from: now, until: until ?? Infinity });
  return value;
}
