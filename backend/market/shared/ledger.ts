/**
 * The game ledger: each wallet's in-game balance per currency, and the entry points through which the chain
 * indexer brings tokens and NFTs into the game. Each runs inside the caller's write transaction.
 */
import { ApiError } from "../../http";
import type { Currency } from "~core/money";
import type { Sql } from "./db";
import { MSG } from "./items";
import { readWei } from "./money";
import { LOCATION } from "./tables";
import { addToWei, weiSumSql } from "./wei-column";

export async function balanceOf(db: Sql, address: string, currency: Currency): Promise<bigint> {
  const row = await db.get<{ amount: string }>("select amount from market_balances where address = ? and currency = ?", [
    address,
    currency,
  ]);
  return row ? readWei(row.amount) : 0n;
}

const balance = (address: string, currency: Currency) =>
  ({ table: "market_balances", column: "amount", key: { address, currency } }) as const;

/**
 * Adds to a game balance (a negative amount takes from it, without a floor: a reorg's undo) in one statement: an
 * upsert that adds in SQL (wei-column.ts weiSumSql) under the row's lock, so a concurrent change is never lost.
 */
export async function credit(db: Sql, address: string, currency: Currency, amount: bigint): Promise<bigint> {
  const row = await db.get<{ amount: string }>(
    `insert into market_balances (address, currency, amount) values (?, ?, ?)
     on conflict (address, currency) do update set amount = ${weiSumSql(db.engine, "market_balances.amount", "excluded.amount")}
     returning amount`,
    [address, currency, amount.toString()],
  );
  return readWei(row!.amount);
}

/**
 * Takes `amount` from a game balance, or refuses with product §5's balance message. One statement when the balance
 * covers it: an update conditional on the new amount not being negative, worked out in SQL under the row's lock (a
 * concurrent change is waited for and counted, decision 0010). When it changes no row (no balance, or too little),
 * the read-then-write of addToWei says which, refuses, or makes the row (a debit of 0 from no balance).
 */
export async function debit(db: Sql, address: string, currency: Currency, amount: bigint): Promise<bigint> {
  const next = weiSumSql(db.engine, "amount", "?");
  const taken = (-amount).toString();
  const row = await db.get<{ amount: string }>(
    `update market_balances set amount = ${next} where address = ? and currency = ? and ${next} not like '-%' returning amount`,
    [taken, address, currency, taken],
  );
  if (row) return readWei(row.amount);
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
