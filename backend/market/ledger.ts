/**
 * The game ledger: each wallet's in-game balance per currency, and the entry points through which the chain
 * indexer brings tokens and NFTs into the game. Each runs inside the caller's write transaction.
 */
import { ApiError } from "../http";
import type { Currency } from "~core/money";
import type { Sql } from "./db";
import { MSG } from "./items";
import { readWei } from "./money";
import { LOCATION } from "./tables";
import { addToWei } from "./wei-column";

export async function balanceOf(db: Sql, address: string, currency: Currency): Promise<bigint> {
  const row = await db.get<{ amount: string }>("select amount from market_balances where address = ? and currency = ?", [
    address,
    currency,
  ]);
  return row ? readWei(row.amount) : 0n;
}

const balance = (address: string, currency: Currency) =>
  ({ table: "market_balances", column: "amount", key: { address, currency } }) as const;

/** Adds to a game balance, by compare-and-set (wei-column.ts): a concurrent change is never lost. */
export async function credit(db: Sql, address: string, currency: Currency, amount: bigint): Promise<bigint> {
  return await addToWei(db, balance(address, currency), amount);
}

/** Takes `amount` from a game balance, or refuses with product §5's balance message. */
export async function debit(db: Sql, address: string, currency: Currency, amount: bigint): Promise<bigint> {
  return await addToWei(db, balance(address, currency), -amount, { floor: 0n, message: MSG.noBalance });
}

/** A token swap from the chain into the game (read by the indexer from the asset manager's events). */
export async function creditGameBalance(db: Sql, address: string, currency: Currency, amount: bigint): Promise<bigint> {
  return await credit(db, address, currency, amount);
}

/** An NFT swapped from the chain into the game: it becomes tradable again, owned by `owner`. */
export async function receiveItemIntoGame(db: Sql, nftType: number, tokenId: string, owner: string, now: number): Promise<void> {
  const { changes } = await db.run(
    "update market_items set owner_address = ?, location = ?, updated_at = ? where nft_type = ? and token_id = ?",
    [owner, LOCATION.game, now, nftType, tokenId],
  );
  if (!changes) throw new ApiError(404, MSG.notFound);
}
