/**
 * What the market shows that is not final yet (decision 0029): the streams that follow the head write an item's
 * transfers and mutations before the paying streams would trust their block, so a page marks the item pending until
 * its latest chain change is final. The indexer's own cursors say where the head and the final block stood at its
 * last pass: the lowest of the head streams' and of the paying streams'.
 */
import { type PendingConfirmations, pendingConfirmations } from "~core/chain-finality";
import { CARD_COLLECTION_TYPES } from "~core/nft";
import type { Sql } from "../shared/db";
import type { ItemRow } from "../shared/items";
import { TRANSFERS_STREAM } from "./indexer";
import { PAYING_STREAMS, SHOWING_STREAMS } from "./streams";

const HEAD = [TRANSFERS_STREAM, ...SHOWING_STREAMS.map((s) => s.stream)];
const FINAL = PAYING_STREAMS.map((s) => s.stream);

/** The head and the final block as the indexer last applied them; null before every stream has a cursor. */
export async function indexedDepths(db: Sql): Promise<{ head: bigint; final: bigint } | null> {
  const streams = [...HEAD, ...FINAL];
  const rows = await db.all<{ stream: string; block: number | string }>(
    `select stream, block from market_chain_cursors where stream in (${streams.map(() => "?").join(", ")})`,
    streams,
  );
  if (rows.length !== streams.length) return null;
  const lowest = (names: string[]) =>
    rows
      .filter((row) => names.includes(row.stream))
      .map((row) => BigInt(row.block))
      .reduce((low, block) => (block < low ? block : low));
  return { head: lowest(HEAD), final: lowest(FINAL) };
}

/** The block of an item's latest chain change the market shows: its transfer, or a mutation of its card's word. */
async function lastChainChange(db: Sql, item: Pick<ItemRow, "id" | "nft_type" | "token_id">): Promise<bigint | null> {
  const blockOf = (row: { block: number | string | null } | undefined) => (row?.block == null ? null : BigInt(row.block));
  const transferred = blockOf(await db.get("select chain_block as block from market_items where id = ?", [item.id]));
  if (!CARD_COLLECTION_TYPES.includes(item.nft_type)) return transferred;
  // A batch update names a range of tokens, not this one: it is left out.
  const mutated = blockOf(
    await db.get("select max(block_number) as block from market_mutation_events where token_id = ? and event <> 'batch'", [item.token_id]),
  );
  return mutated !== null && (transferred === null || mutated > transferred) ? mutated : transferred;
}

/** How far an item's latest chain change is from final; null when it is final, or the indexer has not run. */
export async function itemPending(db: Sql, item: Pick<ItemRow, "id" | "nft_type" | "token_id">): Promise<PendingConfirmations | null> {
  const depths = await indexedDepths(db);
  if (!depths) return null;
  return pendingConfirmations(await lastChainChange(db, item), depths.head, depths.final);
}
