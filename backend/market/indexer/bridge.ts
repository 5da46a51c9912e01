/**
 * The bridge stream of the market indexer (issue 14): the asset manager's Claimed and SwappedToGame events, applied
 * to the game once they are final (core/chain-finality.ts; decision 0029).
 * - Claimed: the pending claim of that nonce is done; a claimed item is on chain now, held by the claimant unless the
 *   transfers stream, which follows the head, placed it first (a claimed stack shows as the claimant's chain stack,
 *   from the SparkItems stream, items1155.ts).
 * - SwappedToGame: a token swap credits the game balance; an NFT comes back into the game, owned by the swapper.
 * - SwappedItemToGame: an amount of a SparkItems stack credits the swapper's game stack of that material.
 * Every applied event is stored with its block hash (unique by transaction and log index, so none is applied
 * twice). Before each range the indexer checks that the block its cursor stands on is still on the chain; after a
 * reorg (only possible above the final block, so where the head is final: the local chain) it undoes, newest first, every
 * applied event whose block is gone and reads again from there (stream.ts).
 * The database side is synchronous, inside one MarketDb transaction, so a range's effects and its cursor commit
 * together.
 */
import { type Address, getAbiItem, isAddressEqual } from "viem";
import { assetManagerAbi } from "../../../contracts/generated/abi";
import { CLAIM_KIND } from "~core/claim";
import type { ContractAddresses } from "~core/contracts";
import type { Currency } from "~core/money";
import { stackOfTokenId } from "~core/item-tokens";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import { BRIDGE_STREAM, retakeStackClaim, stackClaimPaid, creditGameStack, takeFromStack } from "../claims";
import type { Sql } from "../shared/db";
import { credit } from "../shared/ledger";
import { activeListing, type ItemRow } from "../shared/items";
import { closeListing } from "../trades";
import { CLAIM_STATUS, type ClaimsTable, LOCATION, type Location } from "../shared/tables";
import { type ChainItem, chainItemRow } from "../shared/chain-items";
import { applyStreamRange, type ChainEventPosition, type StoredStream, storedStream, type StreamRange } from "./stream";

export const CLAIMED_EVENT = getAbiItem({ abi: assetManagerAbi, name: "Claimed" });
export const SWAPPED_EVENT = getAbiItem({ abi: assetManagerAbi, name: "SwappedToGame" });
export const SWAPPED_ITEM_EVENT = getAbiItem({ abi: assetManagerAbi, name: "SwappedItemToGame" });

export interface BridgeEvent extends ChainEventPosition {
  event: "claimed" | "swapped" | "swapped-item";
  account: Address;
  kind: number;
  asset: Address;
  idOrAmount: bigint;
  /** The claim's nonce, or the swap's id. */
  ref: bigint;
  /** A SwappedItemToGame's ERC-1155 id (its idOrAmount is the amount). */
  itemsId?: bigint;
}

/** What applying an event did, stored with it so a reorg can take it back. */
type Effect =
  | { type: "claim-done"; claimId: number; itemId: number | null; previousOwner: string | null }
  | { type: "credit"; account: string; currency: Currency; amount: string }
  | { type: "item-in"; itemId: number; previousOwner: string; previousLocation: Location; created: boolean }
  /** `amount` is decimal text (a number in effects stored before market_026). */
  | { type: "stack-in"; itemId: number; amount: string | number }
  | { type: "none"; reason: string };

/** The game currency of a token the asset manager holds; null for one the game does not keep. */
export function currencyOf(asset: Address, contracts: ContractAddresses): Currency | null {
  if (isAddressEqual(asset, contracts.fire)) return "FIRE";
  if (isAddressEqual(asset, contracts.quark)) return "QUARK";
  if (isAddressEqual(asset, contracts.usdt)) return "USDT";
  return null;
}

const CARD_ITEM = `select * from market_items where nft_type in (${CARD_COLLECTION_TYPES.join(", ")}) and token_id = ?`;

/** Puts the item with `owner` at `location`. */
const placeItem = (db: Sql, itemId: number, owner: string | null, location: Location, now: number) =>
  db.run("update market_items set owner_address = ?, location = ?, updated_at = ? where id = ?", [owner, location, now, itemId]);

/** Moves the item to `owner` at `location`, ending its listing (it is no longer where it was listed). */
async function moveItem(db: Sql, item: ItemRow, owner: string, location: Location, now: number): Promise<void> {
  const listing = await activeListing(db, item.id);
  if (listing) await closeListing(db, item, listing, now, null);
  await placeItem(db, item.id, owner, location, now);
}

async function applyClaimed(db: Sql, e: BridgeEvent, now: number): Promise<Effect> {
  const claim = await db.get<ClaimsTable>("select * from market_claims where id = ?", [Number(e.ref)]);
  if (!claim || !isAddressEqual(claim.account as Address, e.account)) return { type: "none", reason: "not a claim of this game" };
  // An expired claim whose transaction still made it before its deadline is done all the same: the chain paid it.
  // Its asset had gone back to the game, so it leaves again.
  if (claim.status === CLAIM_STATUS.expired) {
    if (claim.kind === CLAIM_KIND.token) await credit(db, claim.account, claim.currency as Currency, -BigInt(claim.id_or_amount));
    if (claim.kind === CLAIM_KIND.item1155) await retakeStackClaim(db, claim, now);
  }
  await db.run("update market_claims set status = ?, updated_at = ? where id = ?", [CLAIM_STATUS.claimed, now, claim.id]);
  if (claim.kind === CLAIM_KIND.item1155) {
    const itemId = await stackClaimPaid(db, claim, now);
    return { type: "claim-done", claimId: claim.id, itemId, previousOwner: itemId === null ? null : claim.account };
  }
  if (claim.kind !== CLAIM_KIND.nft || claim.item_id === null)
    return { type: "claim-done", claimId: claim.id, itemId: null, previousOwner: null };
  const item = (await db.get<ItemRow>("select * from market_items where id = ?", [claim.item_id]))!;
  // The transfers stream follows the head and placed it already (decision 0029); it may have moved on since.
  if (item.location === LOCATION.chain) return { type: "claim-done", claimId: claim.id, itemId: null, previousOwner: null };
  await moveItem(db, item, e.account, LOCATION.chain, now);
  return { type: "claim-done", claimId: claim.id, itemId: item.id, previousOwner: item.owner_address };
}

async function applySwapped(
  db: Sql,
  e: BridgeEvent,
  contracts: ContractAddresses,
  describe: (tokenId: bigint) => ChainItem | null,
  now: number,
): Promise<Effect> {
  if (e.event === "swapped-item") return applySwappedStack(db, e, contracts, now);
  if (e.kind === CLAIM_KIND.token) {
    const currency = currencyOf(e.asset, contracts);
    if (!currency) return { type: "none", reason: `token ${e.asset} is not a game currency` };
    await credit(db, e.account, currency, e.idOrAmount);
    return { type: "credit", account: e.account, currency, amount: e.idOrAmount.toString() };
  }
  if (!isAddressEqual(e.asset, contracts.card)) return { type: "none", reason: `collection ${e.asset} is not the card collection` };
  const tokenId = e.idOrAmount.toString();
  const item = await db.get<ItemRow>(CARD_ITEM, [tokenId]);
  if (item) {
    await placeItem(db, item.id, e.account, LOCATION.game, now);
    return { type: "item-in", itemId: item.id, previousOwner: item.owner_address, previousLocation: item.location, created: false };
  }
  // A card the transfer stream has not described yet: made here from its word, already in the game.
  const described = describe(e.idOrAmount);
  if (!described) return { type: "none", reason: `card ${tokenId} has no market form` };
  const row = { ...chainItemRow(described, tokenId, e.account, now), location: LOCATION.game };
  const columns = Object.keys(row);
  const inserted = await db.get<{ id: number }>(
    `insert into market_items (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")}) returning id`,
    columns.map((name) => (row as Record<string, unknown>)[name]),
  );
  return { type: "item-in", itemId: inserted!.id, previousOwner: e.account, previousLocation: LOCATION.chain, created: true };
}

/**
 * An amount of a SparkItems stack burnt into the game: the swapper's game stack of that material grows by it, the
 * stack their last claim of it left from when it can (so 40 out and 15 back leave one stack of 75), else their oldest.
 */
async function applySwappedStack(db: Sql, e: BridgeEvent, contracts: ContractAddresses, now: number): Promise<Effect> {
  if (!contracts.items || !isAddressEqual(e.asset, contracts.items))
    return { type: "none", reason: `collection ${e.asset} is not SparkItems` };
  const stack = e.itemsId === undefined ? null : stackOfTokenId(e.itemsId);
  if (!stack || stack.nftType !== NFT_TYPE.material) return { type: "none", reason: `id ${e.itemsId} is no stack the game keeps` };
  if (e.idOrAmount === 0n) return { type: "none", reason: "no amount" };
  const last = await db.get<{ item_id: number }>(
    `select c.item_id from market_claims c join market_items i on i.id = c.item_id
     where c.account = ? and c.kind = ? and i.nft_type = ? and i.material = ? order by c.id desc limit 1`,
    [e.account, CLAIM_KIND.item1155, NFT_TYPE.material, stack.code],
  );
  const { itemId } = await creditGameStack(
    db,
    e.account,
    stack.code,
    e.idOrAmount,
    `swap:${e.txHash}:${e.logIndex}`,
    now,
    last?.item_id ?? null,
  );
  return { type: "stack-in", itemId, amount: e.idOrAmount.toString() };
}

export interface BridgeRange extends StreamRange<BridgeEvent> {
  /** The time of block toBlock (unix seconds): claims past it that were not paid by then never will be. */
  toTime: bigint;
  contracts: ContractAddresses;
  /** What a card the market has no item for is, read beforehand for every swapped card. */
  cards: ReadonlyMap<string, ChainItem | null>;
}

/** Applies a range's events in chain order, each once, and moves the cursor; false when another run moved it first. */
export async function applyBridgeRange(db: Sql, w: BridgeRange): Promise<boolean> {
  const apply = async (e: BridgeEvent) => ({
    effect:
      e.event === "claimed"
        ? await applyClaimed(db, e, w.now)
        : await applySwapped(db, e, w.contracts, (tokenId) => w.cards.get(tokenId.toString()) ?? null, w.now),
    columns: {
      // The table's event is claimed or swapped; a stack's swap is a swap of kind 2.
      event: e.event === "swapped-item" ? "swapped" : e.event,
      account: e.account,
      kind: e.kind,
      asset: e.asset,
      id_or_amount: e.idOrAmount.toString(),
      ref: e.ref.toString(),
    },
  });
  return applyStreamRange(db, BRIDGE, w, apply, w.toTime);
}

async function undo(db: Sql, effect: Effect, now: number): Promise<void> {
  switch (effect.type) {
    case "claim-done":
      // Pending again: the claim's transaction may be mined again on the new branch, or its deadline pass.
      await db.run("update market_claims set status = ?, updated_at = ? where id = ?", [CLAIM_STATUS.pending, now, effect.claimId]);
      if (effect.itemId !== null) await placeItem(db, effect.itemId, effect.previousOwner, LOCATION.leaving, now);
      return;
    case "credit":
      await credit(db, effect.account, effect.currency, -BigInt(effect.amount));
      return;
    case "item-in": {
      const item = await db.get<ItemRow>("select * from market_items where id = ?", [effect.itemId]);
      if (!item) return;
      // Whatever the game did with it since (a listing) ends: the item never arrived.
      await moveItem(db, item, effect.previousOwner, effect.previousLocation, now);
      return;
    }
    case "stack-in":
      // The amount never arrived: it leaves the stack again (a new stack entirely, like a burnt token).
      await takeFromStack(db, effect.itemId, BigInt(effect.amount), now);
      return;
    case "none":
      return;
  }
}

/** The bridge's cursor and applied events, for the indexer's reorg check. */
export const BRIDGE: StoredStream = storedStream(BRIDGE_STREAM, "market_bridge_events", undo);
