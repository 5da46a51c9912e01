/**
 * The reconciler's comparison (decision 0027): the market's chain rows beside what the chain holds at one block.
 * ERC-721 items (cards and loot boxes) by `ownerOf` and their word or box type, chain stacks by SparkItems'
 * `balanceOf`, open chain listings by `Trading.listingState` and whether the seller still holds what they list.
 * Each difference carries its repair, which runs in the caller's transaction and writes only what still differs.
 */
import { type Address, getAddress, zeroAddress } from "viem";
import { sameAddress } from "~core/address";
import { chainStackOf } from "~core/item-moves";
import { CARD_COLLECTION_TYPES, NFT_TYPE } from "~core/nft";
import { LISTING_STANDARD, LISTING_STATE, listingOfOrder } from "~core/trading";
import type { BackendChain } from "../../types";
import { chainOrderOf } from "../listings";
import type { Sql } from "../shared/db";
import { type ChainTruth, reconcileItem, type chainReader, cancelListing } from "../indexer";
import { DESCRIPTION_COLUMNS, type ChainItem, boxItem, cardItem, chainItemRow } from "../shared/chain-items";
import type { ItemRow, ListingRow } from "../shared/items";
import { setChainStack } from "../claims";
import { LISTING_STATUS, LISTING_VENUE, LOCATION, type StoredItemsTable } from "../shared/tables";

export const DRIFT_KINDS = ["item", "stack", "listing"] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** One difference between the market and the chain, and how to take the chain's side. */
export interface Drift {
  kind: DriftKind;
  /** The row it concerns (market_items or market_listings id), to check it again alone. */
  rowId: number;
  /** What it is: `card:12`, `box:3`, `stack:<SparkItems id>@<holder>`, `listing:<id>`. */
  token: string;
  market: string;
  chain: string;
  /** Writes the chain's value if the row still holds what was compared; true when it wrote. */
  repair(tx: Sql, now: number): Promise<boolean>;
}

/** Which rows to compare: all of them, or the ones of earlier differences (by kind, their row ids). */
export type Scope = Partial<Record<DriftKind, readonly number[]>> | null;

type Reader = ReturnType<typeof chainReader>;

/** Reads in flight at once; the transport sends them as JSON-RPC batches of 100. */
const READS_IN_FLIGHT = 300;

/** `read` over `rows` a page at a time, in order. */
async function paged<T, R>(rows: readonly T[], read: (row: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += READS_IN_FLIGHT) out.push(...(await Promise.all(rows.slice(i, i + READS_IN_FLIGHT).map(read))));
  return out;
}

const within = (ids: readonly number[]) => ` and id in (${ids.map(Number).join(", ") || "null"})`;

/**
 * The market's chain rows in scope: the ERC-721 items the indexer wrote (chain_block set: an item only marked as on
 * chain, as the demo generator marks some, is not the indexer's), chain stacks and active chain listings.
 */
export async function chainRows(db: Sql, scope: Scope) {
  const only = (kind: DriftKind) => (scope ? new Set(scope[kind] ?? []) : null);
  const [items, stacks] = [only("item"), only("stack")];
  const held = await db.all<ItemRow & Pick<StoredItemsTable, "chain_block">>(
    `select * from market_items where location = ? and (chain_block is not null or nft_type = ${NFT_TYPE.material}) and nft_type in (${[...CARD_COLLECTION_TYPES, NFT_TYPE.lootbox].join(", ")})${
      scope ? within([...(scope.item ?? []), ...(scope.stack ?? [])]) : ""
    } order by id`,
    [LOCATION.chain],
  );
  // A material is a SparkCard token (one piece) or a SparkItems stack, whose token id names its holder.
  const isStack = (row: ItemRow) => row.nft_type === NFT_TYPE.material && chainStackOf(row.token_id) !== null;
  return {
    items: held.filter((row) => !isStack(row) && row.chain_block !== null && (!items || items.has(row.id))),
    stacks: held.filter((row) => isStack(row) && (!stacks || stacks.has(row.id))),
    listings: await db.all<ListingRow>(
      `select * from market_listings where status = ? and venue = ?${scope ? within(scope.listing ?? []) : ""} order by id`,
      [LISTING_STATUS.active, LISTING_VENUE.chain],
    ),
  };
}
export type ChainRows = Awaited<ReturnType<typeof chainRows>>;

const collectionOf = (row: ItemRow) => (row.nft_type === NFT_TYPE.lootbox ? "box" : "card");
const holderText = (owner: string) => (owner === zeroAddress ? "burnt" : owner);

/** What the chain holds for an ERC-721 item's token at `block`: its holder, and what the token is. */
async function itemTruth(reader: Reader, row: ItemRow, block: bigint): Promise<ChainTruth> {
  const tokenId = BigInt(row.token_id);
  const owner = await reader.ownerOf(collectionOf(row), tokenId, block);
  if (!owner) return { itemId: row.id, owner, item: null };
  let item: ChainItem | null;
  if (row.nft_type === NFT_TYPE.lootbox) item = boxItem(await reader.boxType(tokenId, block));
  else {
    const word = await reader.cardWord(tokenId, block);
    item = word === null ? null : cardItem(word);
  }
  return { itemId: row.id, owner, item };
}

/**
 * How an item differs from its token, by the rules of reconcileItem (indexer/apply.ts), which repairs it: a token
 * gone (or of no kind the market shows) leaves storage; otherwise its holder, then what the token is. The asset
 * manager as holder is no difference while it is `custodian`: the bridge, at the final depth, has not placed every
 * swap up to the block yet (decision 0029).
 */
function itemDifference(row: ItemRow, truth: ChainTruth, custodian: Address | null): { market: string; chain: string } | null {
  const market = holderText(row.owner_address);
  if (!truth.owner || !truth.item) {
    return row.owner_address === zeroAddress ? null : { market, chain: truth.owner ? `${truth.owner}, of a kind not shown` : "burnt" };
  }
  const held = custodian !== null && sameAddress(truth.owner, custodian);
  if (!held && !sameAddress(row.owner_address, truth.owner)) return { market, chain: truth.owner };
  const described = chainItemRow(truth.item, row.token_id, zeroAddress, 0) as Record<string, unknown>;
  const fields = row as unknown as Record<string, unknown>;
  const changed = DESCRIPTION_COLUMNS.filter((name) => (fields[name] ?? null) !== (described[name] ?? null));
  if (!changed.length) return null;
  const text = (values: Record<string, unknown>) => changed.map((name) => `${name}=${String(values[name] ?? null)}`).join(" ");
  return { market: text(fields), chain: text(described) };
}

async function itemDrifts(reader: Reader, rows: readonly ItemRow[], block: bigint, custodian: Address | null): Promise<Drift[]> {
  const truths = await paged(rows, (row) => itemTruth(reader, row, block));
  const drifts: Drift[] = [];
  rows.forEach((row, i) => {
    const truth = truths[i]!;
    const difference = itemDifference(row, truth, custodian);
    if (!difference) return;
    drifts.push({
      kind: "item",
      rowId: row.id,
      token: `${collectionOf(row)}:${row.token_id}`,
      ...difference,
      // The row is written as of `block`, so a reorg below it reconciles it again (itemsWrittenSince).
      repair: (tx, now) => reconcileItem(tx, truth, { custodian, block, now }),
    });
  });
  return drifts;
}

async function stackDrifts(reader: Reader, rows: readonly ItemRow[], block: bigint): Promise<Drift[]> {
  const stacks = rows.map((row) => {
    const { id, holder } = chainStackOf(row.token_id)!;
    // Checksummed, as the SparkItems stream writes a holder.
    return { row, id, holder: getAddress(holder) };
  });
  const balances = await paged(stacks, ({ id, holder }) => reader.stackBalance(holder, id, block));
  const drifts: Drift[] = [];
  stacks.forEach(({ row, id, holder }, i) => {
    const balance = balances[i]!;
    if (balance === BigInt(row.amount)) return;
    drifts.push({
      kind: "stack",
      rowId: row.id,
      token: `stack:${id}@${holder}`,
      market: row.amount,
      chain: balance.toString(),
      repair: (tx, now) => setChainStack(tx, row, holder, row.amount, balance, now),
    });
  });
  return drifts;
}

const STATE_WORDS = ["open", "filled", "cancelled", "expired", "voided by a cancel all"];

/** Whether the listing's seller still holds what it sells at `block`, in words when not. */
async function sellerShort(reader: Reader, chain: BackendChain, row: ListingRow, block: bigint): Promise<string | null> {
  const listing = listingOfOrder(chainOrderOf(row, chain.contracts)!);
  if (listing.standard === LISTING_STANDARD.erc1155) {
    const held = await reader.stackBalance(listing.seller, listing.tokenId, block);
    return held >= listing.amount ? null : `the seller holds ${held} of ${listing.amount}`;
  }
  const collection = sameAddress(listing.collection, chain.contracts.box) ? "box" : "card";
  const owner = await reader.ownerOf(collection, listing.tokenId, block);
  if (owner && sameAddress(owner, listing.seller)) return null;
  return owner ? `held by ${owner}` : "burnt";
}

async function listingDrifts(reader: Reader, chain: BackendChain, rows: readonly ListingRow[], block: bigint): Promise<Drift[]> {
  const truths = await paged(rows, async (row) => {
    const state = await reader.listingState(listingOfOrder(chainOrderOf(row, chain.contracts)!), block);
    return state === LISTING_STATE.open ? await sellerShort(reader, chain, row, block) : (STATE_WORDS[state] ?? `state ${state}`);
  });
  const drifts: Drift[] = [];
  rows.forEach((row, i) => {
    const chainSide = truths[i];
    if (!chainSide) return;
    drifts.push({
      kind: "listing",
      rowId: row.id,
      token: `listing:${row.id}`,
      market: `open (order ${row.order_hash})`,
      chain: chainSide,
      // Closed as the trading stream closes one (cancelled, logged), only while it is still active.
      repair: async (tx, now) => {
        const current = await tx.get<ListingRow>("select * from market_listings where id = ?", [row.id]);
        return Boolean(current && (await cancelListing(tx, current, now)));
      },
    });
  });
  return drifts;
}

/** Every difference between `rows` and the chain at `block`. */
export async function compare(
  reader: Reader,
  chain: BackendChain,
  rows: ChainRows,
  block: bigint,
  custodian: Address | null,
): Promise<Drift[]> {
  return [
    ...(await itemDrifts(reader, rows.items, block, custodian)),
    ...(await stackDrifts(reader, rows.stacks, block)),
    ...(await listingDrifts(reader, chain, rows.listings, block)),
  ];
}
