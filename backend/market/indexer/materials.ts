/**
 * The materials stream of the market indexer (issue 15): the StarshipManager's MaterialsSentToGame events, applied to
 * the game once they are final (decision 0029). Each event gives its sender one new stack per material it carries
 * (DarkIron, Silver, Gold: an item of NFT type 8 with that amount, under a game-issued id, in the game and tradable).
 * Like the bridge stream, every applied event is stored with its block hash and the stacks it made (unique by
 * transaction and log index, so none is applied twice), and after a reorg the stacks of vanished events are taken
 * back (stream.ts). Every game tag is this game's: the market serves one game, as for the asset manager's swaps.
 */
import { type Address, getAbiItem, type Hash, zeroAddress } from "viem";
import { starshipManagerAbi } from "../../../contracts/generated/abi";
import type { Sql } from "../shared/db";
import { activeListing, type ItemRow } from "../shared/items";
import { closeListing } from "../trades";
import { insertGameStack } from "../claims";
import { applied, readStreamCursor, type StoredStream, writeStreamCursor } from "./stream";

export const MATERIALS_STREAM = "starship-materials";

export const MATERIALS_SENT_EVENT = getAbiItem({ abi: starshipManagerAbi, name: "MaterialsSentToGame" });

export interface MaterialsEvent {
  blockNumber: bigint;
  blockHash: Hash;
  txHash: Hash;
  logIndex: number;
  owner: Address;
  /** DarkIron, Silver, Gold, whole units. */
  amounts: readonly bigint[];
}

/** What applying an event did, stored with it so a reorg can take it back. */
type Effect = { type: "stacks"; itemIds: number[] } | { type: "none"; reason: string };

/** The stacks an event makes: one per material it carries. */
async function applySent(db: Sql, e: MaterialsEvent, now: number): Promise<Effect> {
  const itemIds: number[] = [];
  for (const [material, amount] of e.amounts.entries()) {
    if (amount === 0n) continue;
    itemIds.push(await insertGameStack(db, e.owner, material, amount, `pending:${e.txHash}:${e.logIndex}:${material}`, now));
  }
  return { type: "stacks", itemIds };
}

/** The stacks of an event that vanished never arrived: gone like a burnt token (no storage lists them), any listing ended. */
async function undo(db: Sql, effect: Effect, now: number): Promise<void> {
  if (effect.type === "none") return;
  for (const id of effect.itemIds) {
    const item = await db.get<ItemRow>("select * from market_items where id = ?", [id]);
    if (!item) continue;
    const listing = await activeListing(db, item.id);
    if (listing) await closeListing(db, item, listing, now, null);
    await db.run("update market_items set owner_address = ?, updated_at = ? where id = ?", [zeroAddress, now, item.id]);
  }
}

/** The materials stream's cursor and applied events, for the indexer's reorg check. */
export const MATERIALS: StoredStream = {
  stream: MATERIALS_STREAM,
  table: "market_materials_events",
  undo: (db, effect, now) => undo(db, JSON.parse(effect) as Effect, now),
};

export interface MaterialsRange {
  expectedCursor: bigint | null;
  toBlock: bigint;
  toHash: Hash;
  events: readonly MaterialsEvent[];
  now: number;
}

/** Applies a range's events in chain order, each once, and moves the cursor; false when another run moved it first. */
export async function applyMaterialsRange(db: Sql, w: MaterialsRange): Promise<boolean> {
  if (((await readStreamCursor(db, MATERIALS_STREAM))?.block ?? null) !== w.expectedCursor) return false;
  for (const e of w.events) {
    if (await applied(db, MATERIALS, e.txHash, e.logIndex)) continue;
    const effect = await applySent(db, e, w.now);
    await db.run(
      `insert into market_materials_events (block_number, block_hash, tx_hash, log_index, owner, dark_iron, silver, gold, effect, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [Number(e.blockNumber), e.blockHash, e.txHash, e.logIndex, e.owner, ...e.amounts.map(String), JSON.stringify(effect), w.now],
    );
  }
  await writeStreamCursor(db, MATERIALS_STREAM, w.toBlock, w.toHash, w.now);
  return true;
}
