/**
 * The SparkItems stream of the market indexer (issue 28): the ERC-1155 collection's TransferSingle and TransferBatch
 * events (mints and burns included), applied up to the head (decision 0029). Each holder's balance of each stack
 * id is one market item, located on chain (claims/stacks.ts moveChainStack): a transfer takes its value from the sender's
 * item and adds it to the recipient's; an item whose balance reaches zero leaves storage. Like the bridge and
 * materials streams, every applied event is stored with its block hash and the moves it made (unique by transaction
 * and log index, so none is applied twice), and after a reorg the moves of vanished events are taken back
 * (stream.ts). An id that names no stack (core/item-tokens.ts) is not the market's to show, and is skipped.
 */
import { type Address, getAbiItem, zeroAddress } from "viem";
import { sparkItemsAbi } from "../../../contracts/generated/abi";
import { stackOfTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import type { Sql } from "../shared/db";
import { moveChainStack } from "../claims";
import { applyStreamRange, type ChainEventPosition, type StoredStream, storedStream, type StreamRange } from "./stream";
import { type ClosedListing, endShortStackListing, reopenListings } from "./trading";

export const ITEMS_STREAM = "erc1155-transfers";

export const TRANSFER_SINGLE_EVENT = getAbiItem({ abi: sparkItemsAbi, name: "TransferSingle" });
export const TRANSFER_BATCH_EVENT = getAbiItem({ abi: sparkItemsAbi, name: "TransferBatch" });

/** A TransferSingle (one id) or TransferBatch, as the reader gives it. */
export interface ItemsEvent extends ChainEventPosition {
  from: Address;
  to: Address;
  ids: readonly bigint[];
  values: readonly bigint[];
}

/** One balance change an event made, so a reorg can make the opposite one. */
interface Move {
  holder: string;
  material: number;
  /** Decimal text, as a uint256 can pass 2^53 (a number in effects stored before market_026). */
  delta: string | number;
}

/** The moves, and the listings of stacks left holding less than they list (cancelled). */
type Effect = { type: "moves"; moves: Move[]; closed?: ClosedListing[] } | { type: "none"; reason: string };

async function applyTransfer(db: Sql, e: ItemsEvent, filled: ReadonlySet<string>, now: number): Promise<Effect> {
  const moves: Move[] = [];
  for (const [i, id] of e.ids.entries()) {
    const value = e.values[i] ?? 0n;
    const stack = stackOfTokenId(id);
    if (!stack || stack.nftType !== NFT_TYPE.material || value === 0n) continue;
    if (e.from !== zeroAddress) moves.push({ holder: e.from, material: stack.code, delta: (-value).toString() });
    if (e.to !== zeroAddress) moves.push({ holder: e.to, material: stack.code, delta: value.toString() });
  }
  if (!moves.length) return { type: "none", reason: "no stack of the market moved" };
  const closed: ClosedListing[] = [];
  for (const move of moves) {
    const delta = BigInt(move.delta);
    const { itemId, amount } = await moveChainStack(db, move.holder, move.material, delta, now);
    if (delta >= 0n) continue;
    const done = await endShortStackListing(db, itemId, amount, filled, now);
    if (done) closed.push(done);
  }
  return { type: "moves", moves, closed };
}

async function undo(db: Sql, effect: Effect, now: number): Promise<void> {
  if (effect.type === "none") return;
  for (const move of [...effect.moves].reverse()) {
    const delta = BigInt(move.delta);
    const { itemId, amount } = await moveChainStack(db, move.holder, move.material, -delta, now);
    // Taking back what a holder received can leave their listed stack short of its listing: Trading would refuse it.
    if (delta > 0n) await endShortStackListing(db, itemId, amount, new Set(), now);
  }
  await reopenListings(db, effect.closed ?? []);
}

/** The SparkItems stream's cursor and applied events, for the indexer's reorg check. */
export const ITEMS: StoredStream = storedStream(ITEMS_STREAM, "market_items_events", undo);

export interface ItemsRange extends StreamRange<ItemsEvent> {
  /** Order hashes (lower-case) of stack listings Trading has filled: their moves are sales, closed by the trading stream. */
  filled: ReadonlySet<string>;
}

/** Applies a range's events in chain order, each once, and moves the cursor; false when another run moved it first. */
export async function applyItemsRange(db: Sql, w: ItemsRange): Promise<boolean> {
  return applyStreamRange(db, ITEMS, w, async (e) => {
    const columns = { from_address: e.from, to_address: e.to, ids: e.ids.join(","), amounts: e.values.join(",") };
    return { effect: await applyTransfer(db, e, w.filled, w.now), columns };
  });
}
