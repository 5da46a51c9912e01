/**
 * The materials stream of the market indexer (issue 15): the StarshipManager's MaterialsSentToGame events, applied to
 * the game once they are final (decision 0029). Each event gives its sender one new stack per material it carries
 * (DarkIron, Silver, Gold: an item of NFT type 8 with that amount, under a game-issued id, in the game and tradable).
 * Like the bridge stream, every applied event is stored with its block hash and the stacks it made (unique by
 * transaction and log index, so none is applied twice), and after a reorg the stacks of vanished events are taken
 * back (stream.ts). Every game tag is this game's: the market serves one game, as for the asset manager's swaps.
 */
import { type Address, getAbiItem, zeroAddress } from "viem";
import { starshipManagerAbi } from "../../../contracts/generated/abi";
import type { Sql } from "../shared/db";
import { activeListing, type ItemRow } from "../shared/items";
import { closeListing } from "../trades";
import { insertGameStack } from "../claims";
import { applyStreamRange, type ChainEventPosition, type StoredStream, storedStream, type StreamRange } from "./stream";

export const MATERIALS_STREAM = "starship-materials";

export const MATERIALS_SENT_EVENT = getAbiItem({ abi: starshipManagerAbi, name: "MaterialsSentToGame" });

export interface MaterialsEvent extends ChainEventPosition {
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
export const MATERIALS: StoredStream = storedStream(MATERIALS_STREAM, "market_materials_events", undo);

/** Applies a range's events in chain order, each once, and moves the cursor; false when another run moved it first. */
export async function applyMaterialsRange(db: Sql, w: StreamRange<MaterialsEvent>): Promise<boolean> {
  return applyStreamRange(db, MATERIALS, w, async (e) => {
    const [darkIron, silver, gold] = e.amounts.map(String);
    const columns = { owner: e.owner, dark_iron: darkIron!, silver: silver!, gold: gold! };
    return { effect: await applySent(db, e, w.now), columns };
  });
}
