/**
 * The indexer's side of the database: its cursor, and applying a block range's transfers to the market's items.
 * Synchronous, inside one MarketDb transaction, so a range's writes and its cursor commit together or not at all.
 */
import { type Address, zeroAddress } from "viem";
import { NFT_TYPE } from "~core/nft";
import type { MarketDb } from "../db";
import type { Insertable } from "kysely";
import { type ItemsTable, LOCATION } from "../tables";
import { type ChainItem, CARD_KINDS, boxItem, chainItemRow } from "./items";
import type { Collection, TransferLog } from "./reader";

/** A token of one of our collections, keyed `card:<id>` or `box:<id>`. */
export interface TokenState {
  collection: Collection;
  tokenId: bigint;
  /** Its holder after the range; the zero address once burnt. */
  owner: Address;
}

export const tokenKey = (collection: Collection, tokenId: bigint) => `${collection}:${tokenId}`;

/** Each token's holder at the end of the range: the recipient of its last transfer (a burn's is the zero address). */
export function finalOwners(logs: readonly TransferLog[]): Map<string, TokenState> {
  const owners = new Map<string, TokenState>();
  for (const log of logs)
    owners.set(tokenKey(log.collection, log.tokenId), { collection: log.collection, tokenId: log.tokenId, owner: log.to });
  return owners;
}

export function readCursor(db: MarketDb, stream: string): bigint | null {
  const row = db.get<{ block: number }>("select block from market_chain_cursors where stream = ?", [stream]);
  return row ? BigInt(row.block) : null;
}

function writeCursor(db: MarketDb, stream: string, block: bigint, now: number): void {
  db.run(
    `insert into market_chain_cursors (stream, block, updated_at) values (?, ?, ?)
     on conflict (stream) do update set block = excluded.block, updated_at = excluded.updated_at`,
    [stream, Number(block), now],
  );
}

const CARD_LOOKUP = `select id from market_items where nft_type in (${CARD_KINDS.join(", ")}) and token_id = ?`;

/** The market item of a token, if it has one: a SparkCard id is unique across the card kinds (one collection). */
function itemIdOf(db: MarketDb, token: Pick<TokenState, "collection" | "tokenId">): number | undefined {
  const id = token.tokenId.toString();
  const row =
    token.collection === "card"
      ? db.get<{ id: number }>(CARD_LOOKUP, [id])
      : db.get<{ id: number }>("select id from market_items where nft_type = ? and token_id = ?", [NFT_TYPE.lootbox, id]);
  return row?.id;
}

/** The keys of the tokens that already have a market item. */
export function knownTokens(db: MarketDb, tokens: Iterable<TokenState>): Set<string> {
  const known = new Set<string>();
  for (const token of tokens) if (itemIdOf(db, token) !== undefined) known.add(tokenKey(token.collection, token.tokenId));
  return known;
}

const ITEM_COLUMNS = Object.keys(chainItemRow(boxItem(0), "0", zeroAddress, 0)) as (keyof Insertable<ItemsTable>)[];
const ITEM_UPSERT = `insert into market_items (${ITEM_COLUMNS.join(", ")}) values (${ITEM_COLUMNS.map(() => "?").join(", ")})
  on conflict (nft_type, token_id) do update set
    owner_address = excluded.owner_address, location = excluded.location, updated_at = excluded.updated_at`;

export interface RangeWrite {
  stream: string;
  /** The cursor the range was read from: if another run moved it meanwhile, nothing is written. */
  expectedCursor: bigint | null;
  toBlock: bigint;
  owners: Map<string, TokenState>;
  /** What each token without a market item is; a token missing here (burnt by now, or not ours to show) gets none. */
  fresh: Map<string, ChainItem>;
  /** The asset manager: a known item moving into its custody is the bridge stream's to place (swapped into the game). */
  custodian: Address;
  now: number;
}

/**
 * Applies a range: an item changes holder (a burn leaves it with the zero address, so no storage lists it while its
 * history stays), a new token gets its item, and the cursor moves to the range's end. False when the cursor had
 * moved (another indexer on this database got there first): the caller reads again from the new cursor.
 * A known item moving into the asset manager's custody is left alone: the bridge stream reads the manager's swap
 * event and brings it into the game for the player who swapped it, whichever stream runs first.
 */
export function applyRange(db: MarketDb, w: RangeWrite): boolean {
  if (readCursor(db, w.stream) !== w.expectedCursor) return false;
  for (const [key, token] of w.owners) {
    const itemId = itemIdOf(db, token);
    if (itemId !== undefined && token.owner.toLowerCase() === w.custodian.toLowerCase()) continue;
    if (itemId !== undefined) {
      db.run("update market_items set owner_address = ?, location = ?, updated_at = ? where id = ?", [
        token.owner,
        LOCATION.chain,
        w.now,
        itemId,
      ]);
      continue;
    }
    const item = w.fresh.get(key);
    if (!item || token.owner === zeroAddress) continue;
    const row = chainItemRow(item, token.tokenId.toString(), token.owner, w.now);
    db.run(
      ITEM_UPSERT,
      ITEM_COLUMNS.map((name) => row[name]),
    );
  }
  writeCursor(db, w.stream, w.toBlock, w.now);
  return true;
}
