/**
 * A visitor's view of an item page the page cache answers (server/page-cache.ts `onServe`): product §7 counts a view
 * on every visit, once per visitor per UTC day, and a page from the cache runs no loader, so the view is counted here
 * as the loader's `views/add` would count it (the same visitor key, the same item rule). A counted view moves the
 * market's page generation, so the next request renders the page with the new count. A copy a shared cache (nginx, a
 * CDN) serves never reaches the app: those views are not counted (decision 0033).
 */
import type { Request } from "express";
import type { BackendDb } from "../backend/types";
import { MarketDb } from "../backend/market/shared/db";
import { addView, findItem } from "../backend/market/shared/items";
import { networkViewer } from "../backend/market/listings/social-routes";
import { readTokenRef } from "../app/features/market/token-ref";

/** How many (visitor, item, day) this process remembers as counted, so a repeat visit costs no write. */
const REMEMBERED = 10_000;

/** Counts the view of the item page `req` asked for; false when it was counted already or names no item the market has. */
export function itemViewCounter(store: BackendDb, internalToken: string | undefined) {
  const db = new MarketDb(store);
  const counted = new Set<string>();
  return async (req: Request): Promise<boolean> => {
    // The item as the page's loader reads it from its URL (readTokenRef).
    const { ref } = readTokenRef(new URL(req.originalUrl, "http://page").searchParams);
    if (!ref) return false;
    const visitor = networkViewer(req, internalToken);
    const now = Date.now();
    const seen = `${visitor} ${ref.nftType} ${ref.tokenId} ${Math.floor(now / 86_400_000)}`;
    if (counted.has(seen)) return false;
    const added = await db.write(async (tx) => {
      const item = await findItem(tx, ref.nftType, ref.tokenId);
      return item ? (await addView(tx, item, visitor, now)).counted : null;
    });
    if (added === null) return false;
    if (counted.size >= REMEMBERED) counted.delete(counted.values().next().value!);
    counted.add(seen);
    return added;
  };
}
