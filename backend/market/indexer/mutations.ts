/**
 * The mutations stream of the market indexer (issue 41): SparkCard's DataMutated (a game upgrade rewriting a token's
 * attribute word, as StarshipManager.upgrade raises a ship's level) and ERC-4906 MetadataUpdate and
 * BatchMetadataUpdate, applied up to the head (decision 0029), so a chain item shows the word the chain holds: its
 * attribute columns, name, image and traits, and its active listing's copies of them (the market's filters read
 * those; triggers move the listed cells and generations with them).
 * - DataMutated carries the new word. The MetadataUpdate mutateData emits beside it says nothing more; any other
 *   MetadataUpdate, and each token the market holds on chain in a BatchMetadataUpdate's range, is read again
 *   (dataOf at the head the stream reads to), page by page over the market's items rather than over the range.
 * - Only an item on chain is rewritten: one in the game is the game's, and a token the market does not know yet is
 *   described by the transfers stream, from its word at the head, when it appears.
 * - Every applied event is stored with its block hash and the descriptions it replaced; after a reorg the vanished
 *   ones are put back, newest first (stream.ts). A DataMutated puts back its oldData, the chain's word before it,
 *   rather than what the row held: the transfers stream may have described the token from its new word already.
 */
import { getAbiItem } from "viem";
import { sparkCardAbi } from "../../../contracts/generated/abi";
import { CARD_COLLECTION_TYPES, type NftTypeCode } from "~core/nft";
import { GRADE_COLUMNS } from "../shared/catalog";
import type { Sql } from "../shared/db";
import { ATTRIBUTE_COLUMN_NAMES, type ItemRow } from "../shared/items";
import { LOCATION } from "../shared/tables";
import { DESCRIPTION_COLUMNS } from "../shared/chain-items";
import { type ChainItem, cardItem, chainItemRow } from "../shared/chain-items";
import { applyStreamRange, type ChainEventPosition, type StoredStream, storedStream, type StreamRange } from "./stream";

export const MUTATIONS_STREAM = "card-mutations";

export const DATA_MUTATED_EVENT = getAbiItem({ abi: sparkCardAbi, name: "DataMutated" });
export const METADATA_UPDATE_EVENT = getAbiItem({ abi: sparkCardAbi, name: "MetadataUpdate" });
export const BATCH_METADATA_UPDATE_EVENT = getAbiItem({ abi: sparkCardAbi, name: "BatchMetadataUpdate" });

/** Items read again per page of a BatchMetadataUpdate's range (each page's words are one batch of calls). */
const REREAD_PAGE = 500;

export type MutationEvent = ChainEventPosition &
  (
    | { event: "mutated"; tokenId: bigint; oldData: bigint; newData: bigint }
    | { event: "metadata"; tokenId: bigint }
    | { event: "batch"; fromTokenId: bigint; toTokenId: bigint }
  );

/** What the stream reads of the chain. */
export interface MutationsReader {
  mutationEvents(fromBlock: bigint, toBlock: bigint): Promise<MutationEvent[]>;
  cardWord(tokenId: bigint, blockNumber: bigint): Promise<bigint | null>;
}

/** A range's events, and the words at `safe` (the head the stream reads to) of the tokens its metadata updates name (null: gone by then). */
export interface MutationsRead {
  events: MutationEvent[];
  words: Map<bigint, bigint | null>;
}

const CHAIN_CARD = `select * from market_items where nft_type in (${CARD_COLLECTION_TYPES.join(", ")}) and token_id = ? and location = ?`;

/** Whether a MetadataUpdate is the one mutateData emits beside its DataMutated, which gave the new word already. */
const companion = (events: readonly MutationEvent[], e: MutationEvent & { event: "metadata" }) =>
  events.some((m) => m.event === "mutated" && m.txHash === e.txHash && m.tokenId === e.tokenId);

/**
 * The chain card items with a token id in [from, to], a page after item `afterId`. Ids are canonical decimals, so
 * a longer one is larger and equal lengths compare as text (bytewise on both engines).
 */
function chainCardsInRange(db: Sql, from: bigint, to: bigint, afterId: number): Promise<{ id: number; token_id: string }[]> {
  const [low, high] = [from.toString(), to.toString()];
  return db.all(
    `select id, token_id from market_items where nft_type in (${CARD_COLLECTION_TYPES.join(", ")}) and location = ? and id > ?
       and (length(token_id) > ? or (length(token_id) = ? and token_id >= ?))
       and (length(token_id) < ? or (length(token_id) = ? and token_id <= ?))
     order by id limit ${REREAD_PAGE}`,
    [LOCATION.chain, afterId, low.length, low.length, low, high.length, high.length, high],
  );
}

/** Reads a range's events, and the words at `safe` of the chain items its metadata updates ask to read again. */
export async function readMutations(
  db: Sql,
  reader: MutationsReader,
  fromBlock: bigint,
  toBlock: bigint,
  safe: bigint,
): Promise<MutationsRead> {
  const events = await reader.mutationEvents(fromBlock, toBlock);
  const words = new Map<bigint, bigint | null>();
  const readWords = async (tokens: bigint[]) => {
    const fresh = tokens.filter((token) => !words.has(token));
    const read = await Promise.all(fresh.map((token) => reader.cardWord(token, safe)));
    fresh.forEach((token, i) => words.set(token, read[i]!));
  };
  for (const e of events) {
    if (e.event === "metadata" && !companion(events, e) && (await db.get(CHAIN_CARD, [e.tokenId.toString(), LOCATION.chain])))
      await readWords([e.tokenId]);
    if (e.event !== "batch") continue;
    for (let afterId = 0; ; ) {
      const page = await chainCardsInRange(db, e.fromTokenId, e.toTokenId, afterId);
      await readWords(page.map((row) => BigInt(row.token_id)));
      if (page.length < REREAD_PAGE) break;
      afterId = page[page.length - 1]!.id;
    }
  }
  return { events, words };
}

/** An item's description as it stands, to put back. */
const descriptionOf = (row: ItemRow): ChainItem => ({
  nftType: row.nft_type,
  columns: Object.fromEntries(ATTRIBUTE_COLUMN_NAMES.map((name) => [name, row[name]])) as ChainItem["columns"],
});

const DESCRIBE = `update market_items set ${DESCRIPTION_COLUMNS.map((name) => `${name} = ?`).join(", ")}, updated_at = ? where id = ?`;
const COPY = `update market_listings set nft_type = ?, grade = ?, ${ATTRIBUTE_COLUMN_NAMES.map((name) => `${name} = ?`).join(", ")}
  where item_id = ? and status = 0`;

/** Rewrites an item, and its active listing's copies, to a description; nothing when it matches already. */
async function describe(db: Sql, row: ItemRow, item: ChainItem, now: number): Promise<void> {
  const described = chainItemRow(item, row.token_id, row.owner_address, now);
  const stored = row as unknown as Record<string, unknown>;
  if (DESCRIPTION_COLUMNS.every((name) => (stored[name] ?? null) === (described[name] ?? null))) return;
  await db.run(DESCRIBE, [...DESCRIPTION_COLUMNS.map((name) => described[name]), now, row.id]);
  const grade = item.columns[GRADE_COLUMNS[item.nftType as NftTypeCode].column] ?? -1;
  await db.run(COPY, [item.nftType, grade, ...ATTRIBUTE_COLUMN_NAMES.map((name) => item.columns[name]), row.id]);
}

/** One item rewritten, with what it was described as before. */
interface Described {
  itemId: number;
  previous: ChainItem;
}

/** What applying an event did, stored with it so a reorg can take it back. */
type Effect = { type: "described"; items: Described[] } | { type: "none"; reason: string };

/**
 * Gives a token's chain item the description of `word`; `previous` is what a reorg puts back (by default the row's
 * own). Null when the market holds no such item on chain, or the word is of a kind it cannot show (the row keeps
 * what it showed).
 */
async function rewrite(db: Sql, tokenId: bigint, word: bigint, now: number, previous?: ChainItem | null): Promise<Described | null> {
  const row = await db.get<ItemRow>(CHAIN_CARD, [tokenId.toString(), LOCATION.chain]);
  const item = cardItem(word);
  if (!row || !item) return null;
  await describe(db, row, item, now);
  return { itemId: row.id, previous: previous ?? descriptionOf(row) };
}

async function applyEvent(db: Sql, e: MutationEvent, r: MutationsRange): Promise<Effect> {
  const items: Described[] = [];
  if (e.event === "mutated") {
    const described = await rewrite(db, e.tokenId, e.newData, r.now, cardItem(e.oldData));
    if (described) items.push(described);
  } else if (e.event === "metadata" && companion(r.events, e)) {
    return { type: "none", reason: "told by its DataMutated" };
  } else {
    const [from, to] = e.event === "metadata" ? [e.tokenId, e.tokenId] : [e.fromTokenId, e.toTokenId];
    for (const [tokenId, word] of r.words) {
      if (tokenId < from || tokenId > to || word === null) continue;
      const described = await rewrite(db, tokenId, word, r.now);
      if (described) items.push(described);
    }
  }
  return items.length ? { type: "described", items } : { type: "none", reason: "no item of the market on chain" };
}

/** Puts the items an event rewrote back as they were, the last first; an item no longer on chain is the game's. */
async function undo(db: Sql, effect: Effect, now: number): Promise<void> {
  if (effect.type === "none") return;
  for (const { itemId, previous } of [...effect.items].reverse()) {
    const row = await db.get<ItemRow>("select * from market_items where id = ? and location = ?", [itemId, LOCATION.chain]);
    if (row) await describe(db, row, previous, now);
  }
}

/** The mutations stream's cursor and applied events, for the indexer's reorg check. */
export const MUTATIONS: StoredStream = storedStream(MUTATIONS_STREAM, "market_mutation_events", undo);

export type MutationsRange = MutationsRead & StreamRange<MutationEvent>;

/** Applies a range's events in chain order, each once, and moves the cursor; false when another run moved it first. */
export async function applyMutationsRange(db: Sql, r: MutationsRange): Promise<boolean> {
  return applyStreamRange(db, MUTATIONS, r, async (e) => {
    const [tokenId, toTokenId] = e.event === "batch" ? [e.fromTokenId, e.toTokenId.toString()] : [e.tokenId, null];
    return { effect: await applyEvent(db, e, r), columns: { event: e.event, token_id: tokenId.toString(), to_token_id: toTokenId } };
  });
}
