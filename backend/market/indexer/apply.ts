/**
 * The indexer's side of the database for the transfers stream: its cursor (with its block's hash), applying a block
 * range's transfers to the market's items, and after a reorg reconciling the items it wrote in blocks that may have
 * vanished with what the chain holds now. Synchronous, inside one MarketDb transaction, so a range's (or a
 * reconciliation's) writes and its cursor commit together or not at all.
 */
import { type Address, type Hash, zeroAddress } from "viem";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import type { Sql } from "../shared/db";
import { LOCATION } from "../shared/tables";
import { type ChainItem, DESCRIPTION_COLUMNS, ROW_COLUMNS, chainItemRow } from "../shared/chain-items";
import type { Collection, TransferLog } from "./reader";
import { readStreamCursor, writeStreamCursor } from "./stream";
import { endMovedListing, reopenListing } from "./trading";

/** A token of one of our collections, keyed `card:<id>` or `box:<id>`. */
export interface TokenState {
  collection: Collection;
  tokenId: bigint;
  /** Its holder after the range; the zero address once burnt. */
  owner: Address;
  /** The block of its last transfer in the range. */
  block: bigint;
}

export const tokenKey = (collection: Collection, tokenId: bigint) => `${collection}:${tokenId}`;

/** Each token's holder at the end of the range: the recipient of its last transfer (a burn's is the zero address). */
export function finalOwners(logs: readonly TransferLog[]): Map<string, TokenState> {
  const owners = new Map<string, TokenState>();
  for (const log of logs)
    owners.set(tokenKey(log.collection, log.tokenId), {
      collection: log.collection,
      tokenId: log.tokenId,
      owner: log.to,
      block: log.blockNumber,
    });
  return owners;
}

export async function readCursor(db: Sql, stream: string): Promise<bigint | null> {
  return (await readStreamCursor(db, stream))?.block ?? null;
}

const CARD_LOOKUP = `select id, owner_address from market_items where nft_type in (${CARD_COLLECTION_TYPES.join(", ")}) and token_id = ?`;
const BOX_LOOKUP = "select id, owner_address from market_items where nft_type = ? and token_id = ?";

/** The market item of a token, if it has one: a SparkCard id is unique across the card kinds (one collection). */
function itemOf(db: Sql, token: Pick<TokenState, "collection" | "tokenId">): Promise<{ id: number; owner_address: string } | undefined> {
  const id = token.tokenId.toString();
  return token.collection === "card" ? db.get(CARD_LOOKUP, [id]) : db.get(BOX_LOOKUP, [NFT_TYPE.lootbox, id]);
}

/** The keys of the tokens that already have a market item. */
export async function knownTokens(db: Sql, tokens: Iterable<Pick<TokenState, "collection" | "tokenId">>): Promise<Set<string>> {
  const known = new Set<string>();
  for (const token of tokens) if ((await itemOf(db, token)) !== undefined) known.add(tokenKey(token.collection, token.tokenId));
  return known;
}

/**
 * The keys of the tokens whose market item is held by someone. An item held by the zero address (burnt, or gone in
 * a reorg) whose token has a holder again was minted anew (a reorg gives sequential ids out again): it is described
 * again from its word, so it is not counted here.
 */
export async function heldTokens(db: Sql, tokens: Iterable<Pick<TokenState, "collection" | "tokenId">>): Promise<Set<string>> {
  const held = new Set<string>();
  for (const token of tokens) {
    const item = await itemOf(db, token);
    if (item && item.owner_address !== zeroAddress) held.add(tokenKey(token.collection, token.tokenId));
  }
  return held;
}

const ITEM_COLUMNS = [...ROW_COLUMNS, "chain_block"] as const;
const ITEM_UPSERT = `insert into market_items (${ITEM_COLUMNS.join(", ")}) values (${ITEM_COLUMNS.map(() => "?").join(", ")})
  on conflict (nft_type, token_id) do update set
    owner_address = excluded.owner_address, location = excluded.location, updated_at = excluded.updated_at,
    chain_block = excluded.chain_block`;
const DESCRIBE = `update market_items set ${DESCRIPTION_COLUMNS.map((name) => `${name} = ?`).join(", ")}, updated_at = ?, chain_block = ?
  where id = ?`;
const MOVE = "update market_items set owner_address = ?, location = ?, updated_at = ?, chain_block = ? where id = ?";

export interface RangeWrite {
  stream: string;
  /** The cursor the range was read from: if another run moved it meanwhile, nothing is written. */
  expectedCursor: bigint | null;
  toBlock: bigint;
  /** toBlock's hash, kept with the cursor so the next run notices when that block is gone. */
  toHash: Hash;
  owners: Map<string, TokenState>;
  /**
   * What each token without a market item (or whose item is held by the zero address) is; a token missing here
   * (burnt by now, or not ours to show) gets no new item.
   */
  fresh: Map<string, ChainItem>;
  /** The asset manager: a known item moving into its custody is the bridge stream's to place (swapped into the game). */
  custodian: Address;
  /** Order hashes (lower-case) of chain listings Trading has filled: their items' moves are sales, closed by the trading stream. */
  filled?: ReadonlySet<string>;
  now: number;
}

/**
 * Applies a range: an item changes holder (a burn leaves it with the zero address, so no storage lists it while its
 * history stays), a new token gets its item, and the cursor moves to the range's end. False when the cursor had
 * moved (another indexer on this database got there first): the caller reads again from the new cursor.
 * A known item moving into the asset manager's custody is left alone: the bridge stream reads the manager's swap
 * event and brings it into the game for the player who swapped it, whichever stream runs first. An item held by the
 * zero address whose token has a holder again is described anew (see heldTokens).
 */
export async function applyRange(db: Sql, w: RangeWrite): Promise<boolean> {
  if ((await readCursor(db, w.stream)) !== w.expectedCursor) return false;
  for (const [key, token] of w.owners) {
    const known = await itemOf(db, token);
    const item = w.fresh.get(key);
    // Any new holder ends the item's chain listing (swapped into the game, transferred, sold elsewhere).
    if (known) await endMovedListing(db, known.id, token.owner, w.filled ?? new Set(), w.now);
    if (known && token.owner.toLowerCase() === w.custodian.toLowerCase()) continue;
    if (known) {
      if (item && known.owner_address === zeroAddress && token.owner !== zeroAddress)
        await describeAgain(db, known.id, token.tokenId.toString(), item, Number(token.block), w.now);
      await db.run(MOVE, [token.owner, LOCATION.chain, w.now, Number(token.block), known.id]);
      continue;
    }
    if (!item || token.owner === zeroAddress) continue;
    const row = { ...chainItemRow(item, token.tokenId.toString(), token.owner, w.now), chain_block: Number(token.block) };
    await db.run(
      ITEM_UPSERT,
      ITEM_COLUMNS.map((name) => row[name]),
    );
  }
  await writeStreamCursor(db, w.stream, w.toBlock, w.toHash, w.now);
  return true;
}

/** Rewrites what an item is from a token's description; true when anything changed. */
async function describeAgain(
  db: Sql,
  id: number,
  tokenId: string,
  item: ChainItem,
  block: number,
  now: number,
  row?: Record<string, unknown>,
): Promise<boolean> {
  const described = chainItemRow(item, tokenId, zeroAddress, now);
  if (row && DESCRIPTION_COLUMNS.every((name) => (row[name] ?? null) === (described[name] ?? null))) return false;
  await db.run(DESCRIBE, [...DESCRIPTION_COLUMNS.map((name) => described[name]), now, block, id]);
  return true;
}

/** An item the transfers stream wrote at or after a block: a reorg may have changed what its token is. */
export interface WrittenItem {
  id: number;
  collection: Collection;
  tokenId: bigint;
}

/** The items the transfers stream last wrote at `fromBlock` or later (a SparkCard kind is a card, a loot box a box). */
export async function itemsWrittenSince(db: Sql, fromBlock: bigint): Promise<WrittenItem[]> {
  const rows = await db.all<{
    id: number;
    nft_type: number;
    token_id: string;
  }>("select id, nft_type, token_id from market_items where chain_block >= ? order by id", [Number(fromBlock)]);
  return rows.map((row) => ({ id: row.id, collection: row.nft_type === NFT_TYPE.lootbox ? "box" : "card", tokenId: BigInt(row.token_id) }));
}

/** What the chain holds now for a written item's token: its holder (null: none, burnt or never minted) and kind. */
export interface ChainTruth {
  itemId: number;
  owner: Address | null;
  /** Null when the token is gone or is of a kind the market cannot show. */
  item: ChainItem | null;
}

export interface Reconciliation {
  stream: string;
  /** The cursor the fork was found at: if another run moved it meanwhile, nothing is written. */
  expectedCursor: bigint;
  /** The items' tokens as the chain holds them at the head. */
  truths: readonly ChainTruth[];
  /** Where the cursor goes back to (hash unknown): ranges are read again after it. */
  rewindTo: bigint;
  custodian: Address;
  /** Order hashes (lower-case) of chain listings Trading has filled: a move to their buyer is the sale's to close. */
  filled: ReadonlySet<string>;
  /**
   * By item id, its latest chain listing when cancelled and Trading still takes it (open at the head): the move
   * that ended it may be gone, and the listing is active again if the item is back with its seller.
   */
  reopenable: ReadonlyMap<number, { listingId: number; seller: string }>;
  now: number;
}

/**
 * After a reorg: each written item still on chain takes what the chain holds now. A token that is gone leaves
 * storage like a burnt one (held by the zero address); one that exists gets its holder and is described again from
 * its word (a reorg can give its id to a token of another kind); one held by the asset manager keeps its holder and
 * place, for the bridge stream to bring in. An item that leaves its chain listing's seller ends that listing, as a
 * transfer does (applyRange): Trading would refuse to fill it. One held by the seller of its latest chain listing,
 * which a move ended and Trading still takes, has it active again: the move that ended it may be gone. An item in
 * the game or leaving it is the bridge's (its own reorg check runs first) and stays as it is. The cursor goes back to
 * `rewindTo`, so the ranges after it are applied again (idempotent: their holders are final states). An item that
 * already matches is not written. Returns the items changed, or null when another run moved the cursor.
 */
export async function reconcileItems(db: Sql, r: Reconciliation): Promise<number | null> {
  if ((await readCursor(db, r.stream)) !== r.expectedCursor) return null;
  let changed = 0;
  for (const truth of r.truths) {
    const options = { custodian: r.custodian, block: r.rewindTo, now: r.now, filled: r.filled, reopenable: r.reopenable.get(truth.itemId) };
    if (await reconcileItem(db, truth, options)) changed += 1;
  }
  await writeStreamCursor(db, r.stream, r.rewindTo, null, r.now);
  return changed;
}

/**
 * One item takes what the chain holds at `block` (see reconcileItems), which its row records as the block it was
 * written at; true when it changed. The chain reconciler (backend/market/reconciler) repairs drift with it too, with
 * no custodian: it runs when the bridge has placed every swap up to `block`, so the asset manager is a holder too.
 */
export async function reconcileItem(
  db: Sql,
  truth: ChainTruth,
  {
    custodian,
    block,
    now,
    filled = new Set(),
    reopenable,
  }: {
    custodian: Address | null;
    block: bigint;
    now: number;
    /** Order hashes (lower-case) Trading has filled: a move to their buyer is the sale's to close. */
    filled?: ReadonlySet<string>;
    /** The item's latest chain listing, cancelled while Trading still takes it (reconcileItems). */
    reopenable?: { listingId: number; seller: string };
  },
): Promise<boolean> {
  const row = await db.get<Record<string, unknown>>("select * from market_items where id = ?", [truth.itemId]);
  if (!row || row.location !== LOCATION.chain) return false;
  if (!truth.owner || !truth.item) {
    if (row.owner_address === zeroAddress) return false;
    await endMovedListing(db, truth.itemId, zeroAddress, filled, now);
    await db.run(MOVE, [zeroAddress, LOCATION.chain, now, Number(block), truth.itemId]);
    return true;
  }
  const redescribe = await describeAgain(db, truth.itemId, String(row.token_id), truth.item, Number(block), now, row);
  const held = custodian !== null && truth.owner.toLowerCase() === custodian.toLowerCase();
  const move = !held && String(row.owner_address).toLowerCase() !== truth.owner.toLowerCase();
  if (move) {
    await endMovedListing(db, truth.itemId, truth.owner, filled, now);
    await db.run(MOVE, [truth.owner, LOCATION.chain, now, Number(block), truth.itemId]);
  }
  const reopened =
    !held && reopenable?.seller.toLowerCase() === truth.owner.toLowerCase() && (await reopenListing(db, reopenable.listingId));
  return redescribe || move || reopened;
}
