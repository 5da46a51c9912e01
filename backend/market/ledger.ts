/**
 * The game ledger: each wallet's in-game balance per currency, and the entry points through which the chain
 * indexer brings tokens and NFTs into the game. Synchronous, inside one MarketDb transaction.
 */
import { ApiError } from "../http";
import type { Currency } from "~core/money";
import type { MarketDb } from "./db";
import { MSG } from "./items";
import { readWei } from "./money";
import { LOCATION } from "./tables";

export function balanceOf(db: MarketDb, address: string, currency: Currency): bigint {
  const row = db.get<{ amount: string }>("select amount from market_balances where address = ? and currency = ?", [address, currency]);
  return row ? readWei(row.amount) : 0n;
}

/** How often a balance change re-reads a balance another writer changed under it before it gives up. */
const BALANCE_TRIES = 5;
export const BALANCE_BUSY = "The balance changed while it was being updated, please try again";

/**
 * Moves a balance by `delta`, refusing with product §5's balance message if it would fall below `floor`.
 *
 * The write is one conditional statement: a compare-and-set on the exact stored text that was read (or an insert that
 * does nothing if another writer created the row first). Its row count says whether it landed, so a concurrent change
 * between the read and the write is never overwritten (no lost update), and the floor check holds for the amount
 * actually replaced. Under READ COMMITTED the update waits for the other writer's row lock and re-checks its where
 * clause against the committed row; a miss re-reads (a new statement sees the commit) and tries again, a bounded
 * number of times. The arithmetic stays in bigint: SQLite cannot subtract 256-bit amounts stored as text exactly (it
 * would coerce them to a 64-bit integer, then to a float), so `set amount = amount - ?` is not an option here.
 */
function adjust(db: MarketDb, address: string, currency: Currency, delta: bigint, floor: bigint | null): bigint {
  for (let attempt = 0; attempt < BALANCE_TRIES; attempt++) {
    const row = db.get<{ amount: string }>("select amount from market_balances where address = ? and currency = ?", [address, currency]);
    const next = (row ? readWei(row.amount) : 0n) + delta;
    if (floor !== null && next < floor) throw new ApiError(400, MSG.noBalance);
    const changed = row
      ? db.run("update market_balances set amount = ? where address = ? and currency = ? and amount = ?", [
          next.toString(),
          address,
          currency,
          row.amount,
        ]).changes
      : db.run("insert into market_balances (address, currency, amount) values (?, ?, ?) on conflict (address, currency) do nothing", [
          address,
          currency,
          next.toString(),
        ]).changes;
    if (changed === 1) return next;
  }
  throw new ApiError(409, BALANCE_BUSY);
}

export function credit(db: MarketDb, address: string, currency: Currency, amount: bigint): bigint {
  return adjust(db, address, currency, amount, null);
}

/** Takes `amount` from a game balance, or refuses with product §5's balance message. */
export function debit(db: MarketDb, address: string, currency: Currency, amount: bigint): bigint {
  return adjust(db, address, currency, -amount, 0n);
}

/** A token swap from the chain into the game (read by the indexer from the asset manager's events). */
export function creditGameBalance(db: MarketDb, address: string, currency: Currency, amount: bigint): bigint {
  return credit(db, address, currency, amount);
}

/** An NFT swapped from the chain into the game: it becomes tradable again, owned by `owner`. */
export function receiveItemIntoGame(db: MarketDb, nftType: number, tokenId: string, owner: string, now: number): void {
  const changed = db.run("update market_items set owner_address = ?, location = ?, updated_at = ? where nft_type = ? and token_id = ?", [
    owner,
    LOCATION.game,
    now,
    nftType,
    tokenId,
  ]).changes;
  if (!changed) throw new ApiError(404, MSG.notFound);
}
