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

export function credit(db: MarketDb, address: string, currency: Currency, amount: bigint): bigint {
  const next = balanceOf(db, address, currency) + amount;
  db.run(
    `insert into market_balances (address, currency, amount) values (?, ?, ?)
     on conflict (address, currency) do update set amount = excluded.amount`,
    [address, currency, next.toString()],
  );
  return next;
}

/** Takes `amount` from a game balance, or refuses with product §5's balance message. */
export function debit(db: MarketDb, address: string, currency: Currency, amount: bigint): bigint {
  const balance = balanceOf(db, address, currency);
  if (balance < amount) throw new ApiError(400, MSG.noBalance);
  return credit(db, address, currency, -amount);
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
